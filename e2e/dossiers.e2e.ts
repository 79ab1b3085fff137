import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDossierStore } from '../runtime/dossiers/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// Dossiers (C15) in the browser with a scripted chat model on 127.0.0.1 as the default model: label a turn, see the
// plan, build, follow a citation to its node, file an inbox fact, and update.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
const dossierPrompts: string[] = [];

function promptOf(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n');
}

/** The scripted model: a dossier request gets sections citing the first key it was shown, and one invented key. */
function model(body: unknown) {
  const prompt = promptOf(body);
  if (!prompt.includes('You maintain a dossier')) return { text: 'Escalators move continuously; lifts move in cars.' };
  dossierPrompts.push(prompt);
  // The canvas turn's key, from the new turns or (on an update) from the dossier so far.
  const key = /(canvas:[^\s,}]+)/.exec(prompt)?.[1] ?? 'none';
  const update = dossierPrompts.length > 1;
  return {
    text: JSON.stringify({
      what: [{ text: 'Escalators carry people continuously between floors.', citations: [key] }],
      decisions: update ? [{ text: 'The survey uses step counts.', citations: [key] }] : [],
      status: [{ text: 'Compared with lifts once.', citations: [key] }],
      open: [{ text: 'An invented source.', citations: ['claude-code:never-shown#1'] }],
    }),
  };
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.replyFor = model;
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  const settings = await putSettings(app, {
    providers: [scriptedProviderEntry(provider.url, ['writer'])],
    defaultModelId: 'scripted/writer',
  });
  expect(settings.status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

describe('dossiers on the memory page', () => {
  it('build from the plan, see cited sentences and the dropped count, open a citation, file an inbox fact, update', async () => {
    const page = app.page;
    await page.locator('[data-testid="node-card"]').first().waitFor();
    const question = await canvas.addQuestion('How do escalators differ from a lift?');
    await canvas.ask(question);

    await page.getByTestId('tab-memory').click();
    const topics = page.getByTestId('topics');
    await topics.getByLabel('New topic').fill('Escalators');
    await topics.getByRole('button', { name: 'Add topic' }).click();
    await topics.getByTestId('topic').first().waitFor();
    await topics.getByRole('button', { name: 'Label turns…' }).click();
    await topics.getByTestId('topics-plan').getByRole('button', { name: 'Start' }).click();
    await topics.getByTestId('topics-job').waitFor();

    const dossiers = page.getByTestId('dossiers');
    await dossiers.getByTestId('dossier-topic').filter({ hasText: 'Escalators' }).click();
    await dossiers.getByRole('button', { name: 'Build…' }).click();
    const plan = dossiers.getByTestId('dossier-plan');
    await plan.waitFor();
    expect(await plan.textContent()).toContain('Read 1 turn and 0 pending facts; one request to scripted/writer');
    expect(await plan.getByTestId('dossier-outgoing').textContent()).toContain('How do escalators differ from a lift?');
    expect(dossierPrompts).toHaveLength(0);
    await plan.getByTestId('dossier-run').click();

    const sentences = dossiers.getByTestId('dossier-sentence');
    await sentences.first().waitFor();
    expect(dossierPrompts).toHaveLength(1);
    expect(await sentences.allTextContents()).toEqual([
      expect.stringContaining('Escalators carry people continuously between floors.'),
      expect.stringContaining('Compared with lifts once.'),
    ]);
    expect(await dossiers.getByTestId('dossier-dropped').textContent()).toContain(
      '1 sentence dropped: cited a turn the model was not shown',
    );
    const citation = await sentences.first().getByTestId('dossier-citation').getAttribute('title');
    // A citation reads as a numbered source, not as its key (the key is in the tooltip).
    expect(await sentences.first().getByTestId('dossier-citation').textContent()).toBe('[1]');
    expect(citation).toMatch(new RegExp(`^canvas:.+#${question}@`));

    // A project fact no topic claims waits in the general inbox until the person files it.
    const store = openDossierStore(app.home);
    store.fileFact({ text: 'I am surveying escalators in Tokyo stations.', turnKey: null, topicIds: [] });
    store.close();
    await page.getByTestId('tab-canvas').click();
    await page.getByTestId('tab-memory').click();
    const inbox = page.getByTestId('dossier-inbox');
    await inbox.getByTestId('inbox-fact').waitFor();
    await page.getByTestId('dossiers').getByTestId('dossier-topic').filter({ hasText: 'Escalators' }).click();
    await page.getByTestId('dossier-sentence').first().waitFor();
    await page.getByTestId('dossiers').scrollIntoViewIfNeeded();
    await canvas.screenshot('dossier');
    await inbox.getByLabel('File to topic').selectOption({ label: 'Escalators' });
    await inbox.getByTestId('inbox-fact').waitFor({ state: 'detached' });

    await page.getByTestId('dossiers').getByRole('button', { name: 'Update…' }).click();
    const next = page.getByTestId('dossier-plan');
    expect(await next.textContent()).toContain('Read 0 turns and 1 pending fact');
    await next.getByTestId('dossier-run').click();
    await page.getByTestId('dossier-history').waitFor();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="dossier-history"] summary')?.textContent?.includes('2 versions'),
    );
    expect(dossierPrompts[1]).toContain('I am surveying escalators in Tokyo stations.');

    // One click from a citation to its node: the canvas opens with the node selected.
    await page.getByTestId('dossier-citation').first().click();
    await page.getByTestId('memory-page').waitFor({ state: 'detached' });
    await canvas.panel.waitFor();
    expect(await canvas.panel.getAttribute('data-node-id')).toBe(question);

    // Archive the node the dossier cites: once the canvas is saved, every sentence citing only it is marked.
    expect(await canvas.command('archive')).toBe(true);
    const canvasId = /^canvas:(.+)#/.exec(citation!)![1]!;
    for (let tries = 0; ; tries += 1) {
      const stored = (await (
        await fetch(`${app.server.origin}/api/canvases/${canvasId}`, {
          headers: { authorization: `Bearer ${app.server.token}` },
        })
      ).json()) as { nodes: { id: string; archived: boolean }[] };
      if (stored.nodes.find((node) => node.id === question)?.archived) break;
      expect(tries).toBeLessThan(100);
      await page.waitForTimeout(100);
    }
    await page.getByTestId('tab-memory').click();
    await page.getByTestId('dossiers').getByTestId('dossier-topic').filter({ hasText: 'Escalators' }).click();
    await page.locator('[data-testid="dossier-sentence"][data-retired="true"]').first().waitFor();
    expect(await page.locator('[data-testid="dossier-sentence"][data-retired="false"]').count()).toBe(0);
    expect(await page.getByTestId('dossier-sentence').first().textContent()).toContain('sources gone');
    expect(app.pageErrors).toEqual([]);
  });
});
