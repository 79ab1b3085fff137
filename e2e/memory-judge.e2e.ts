import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_RECEIPT_MODEL_ID } from '../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { putSettings } from './support/put-settings.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Memory (C13–C14) with a judge configured in Settings: a scripted OpenAI-compatible decision model on 127.0.0.1.
// The answers still come from the offline receipt model; only the judge's decisions go to the scripted provider.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
const judgePrompts: string[] = [];

const PREFERENCE = 'I prefer answers in British English.';

function promptOf(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const user = messages.find((message) => message.role === 'user');
  return typeof user?.content === 'string'
    ? user.content
    : ((user?.content as { text?: string }[] | undefined)?.map((part) => part.text ?? '').join('') ?? '');
}

/** The scripted judge: the preference sentence is a durable, stated preference; anything else is uniform. */
function judge(body: unknown) {
  const prompt = promptOf(body);
  judgePrompts.push(prompt);
  const kind = /Decision: (\S+)/.exec(prompt)?.[1];
  const sentence = /\[Sentence\]\n(.*)\n/.exec(prompt)?.[1];
  const ours = sentence === PREFERENCE;
  const answers: Record<string, Record<string, number>> = {
    'memory-durable': ours ? { durable: 0.95, passing: 0.05 } : { durable: 0.05, passing: 0.95 },
    'memory-category': { preference: 0.9, identity: 0.05, project: 0.05 },
    'memory-stated': { stated: 0.9, implied: 0.1 },
    'memory-covers': { none: 1 },
  };
  if (kind && answers[kind]) return { text: JSON.stringify(answers[kind]) };
  // Other decisions (stale marks): every listed option equally likely.
  const options = JSON.parse(/Options: (\[.*\])/.exec(prompt)?.[1] ?? '["default"]') as string[];
  return { text: JSON.stringify(Object.fromEntries(options.map((option) => [option, 1 / options.length]))) };
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.replyFor = judge;
  app = await launchApp();
  // These tests are about admission itself: facts skip the Inbox (issue 29.1; e2e/memory-inbox.e2e.ts has the gate).
  expect((await putSettings(app, { memoryAutoAccept: { profileFacts: true } })).status).toBe(200);
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

const page = () => app.page;
const lines = () => page().getByTestId('memory-document-preferences').getByTestId('memory-line');

async function showMemory(): Promise<void> {
  if ((await page().getByTestId('memory-page').count()) === 0) await page().getByTestId('tab-memory').click();
  await page().getByTestId('memory-page').waitFor();
}

async function showCanvas(): Promise<void> {
  await page().getByTestId('tab-canvas').click();
  await page().getByTestId('memory-page').waitFor({ state: 'detached' });
}

describe('memory with a judge configured in Settings', () => {
  it('the judge admits a preference (shown as judge), it rides the next preview, and once deleted the judge path refuses it', async () => {
    // Configure the scripted judge through the Settings page.
    await page().getByTestId('tab-settings').click();
    await page().getByTestId('new-provider-kind').selectOption('openai-compatible');
    await page().getByTestId('add-provider').click();
    const row = page().locator('[data-testid="provider-row"]').last();
    await row.getByTestId('provider-id').fill('judge');
    await row.getByTestId('provider-base-url').fill(`${provider.url}/v1`);
    await row.getByTestId('provider-key').fill('sk-test-judge-123');
    await row.getByTestId('provider-models').fill('small');
    await page().getByTestId('save-settings').click();
    await page().getByTestId('settings-saved').waitFor();
    const judgeId = await page()
      .getByTestId('judge-model')
      .locator('option')
      .evaluateAll((options) =>
        options.map((option) => (option as HTMLOptionElement).value).find((value) => value.includes('small')),
      );
    expect(judgeId).toBeTruthy();
    await page().getByTestId('judge-model').selectOption(judgeId!);
    // Answers stay on the offline receipt model: only the judge's decisions go to the scripted provider.
    await page().getByTestId('default-model').selectOption(OFFLINE_RECEIPT_MODEL_ID);
    await page().getByTestId('save-settings').click();
    await page().getByTestId('settings-saved').waitFor();

    await page().getByTestId('tab-canvas').click();
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('About me, judged');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    // 1. The judge admits the stated preference: the activity says judge, the line shows its evidence.
    const first = await canvas.addQuestion(`${PREFERENCE} What is a lift?`);
    await canvas.ask(first);
    await page().locator('[data-testid="toast"][data-code="memory-admitted"]').waitFor();
    await showMemory();
    await page().locator('[data-testid="memory-activity-entry"][data-kind="admitted"]').first().waitFor();
    expect(
      await page()
        .locator('[data-testid="memory-activity-entry"][data-kind="admitted"]')
        .first()
        .getAttribute('data-path'),
    ).toBe('judge');
    expect(await page().locator('[data-testid="memory-activity-entry"][data-path="rule"]').count()).toBe(0);
    expect(await page().locator('[data-testid="memory-activity-entry"][data-kind="judge-failed"]').count()).toBe(0);
    expect(await lines().count()).toBe(1);
    expect(await lines().first().getAttribute('data-evidence')).toBe('stated');
    await lines().first().locator('.memory-line-text').click();
    expect(await page().getByTestId('memory-provenance').locator('mark').textContent()).toBe(PREFERENCE);
    // The judge was really asked, about the person's sentence, through the provider on 127.0.0.1.
    expect(
      judgePrompts.some((prompt) => prompt.includes('Decision: memory-durable') && prompt.includes(PREFERENCE)),
    ).toBe(true);

    // 2. The next preview carries it as its own [Memory] part, and the dispatch commits the preview's hash.
    await showCanvas();
    const second = await canvas.addQuestion('Which spelling should a README use?');
    await canvas.open(second);
    await canvas.panel.locator('[data-testid="preview-message"][data-layer="profile"]').waitFor();
    expect(await canvas.panel.locator('[data-layer="profile"] .preview-text').textContent()).toBe(
      `[Memory]\nPreferences:\n- ${PREFERENCE}`,
    );
    const previewHash = await canvas.previewHash();
    await canvas.ask(second);
    expect((await canvas.panel.getByTestId('version-hash').first().textContent())!.trim()).toBe(previewHash);

    // 3. Deleted by hand, then stated again: the judge path refuses it, and the page shows it refused.
    await showMemory();
    await lines().first().waitFor();
    await lines().first().getByTestId('memory-delete').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="memory-refusal"]').length === 1);
    expect(await lines().count()).toBe(0);
    await showCanvas();
    const again = await canvas.addQuestion(PREFERENCE);
    await canvas.ask(again);
    await showMemory();
    const refused = page().locator(
      '[data-testid="memory-activity-entry"][data-kind="refused"][data-reason="refused-by-person"]',
    );
    await refused.first().waitFor();
    expect(await refused.first().getAttribute('data-path')).toBe('judge');
    expect(await lines().count()).toBe(0);
    // No answer was generated by the judge's model: every request it received was a decision.
    expect(judgePrompts.filter((prompt) => !/^(Decision: |Task: memory-merge)/.test(prompt))).toEqual([]);
    expect(app.pageErrors).toEqual([]);
  });
});
