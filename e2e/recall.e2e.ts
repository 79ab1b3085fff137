import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { copyAtlasFixtures, type AtlasFixtures } from '../server/atlas/testing/atlas-fixtures.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// C16 in the browser over the real session fixtures: recall switched on for a node lists what it found in the
// canvas's folder; a struck item is gone from the next request the scripted model (127.0.0.1) records.
const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';
const CLAUDE_SESSION = 'fb8acab2-b67b-454f-91b5-f87d156f0f09';

let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
let fixtures: AtlasFixtures;
const savedRoots = process.env.WEFT_SESSION_ROOTS;

beforeAll(async () => {
  fixtures = copyAtlasFixtures('weft-recall-e2e-');
  process.env.WEFT_SESSION_ROOTS = fixtures.rootsVariable;
  provider = await startScriptedProvider();
  app = await launchApp({ home: fixtures.weftHome });
  canvas = new CanvasDriver(app.page);
  const settings = await fetch(`${app.server.origin}/api/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${app.server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [
        {
          id: 'scripted',
          kind: 'openai-compatible',
          baseUrl: `${provider.url}/v1`,
          apiKey: 'sk-test-recall-0123456789',
          models: ['scripted-model'],
        },
      ],
      defaultModelId: 'scripted/scripted-model',
    }),
  });
  expect(settings.status).toBe(200);
  await app.reload();
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
  fixtures?.dispose();
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});

const page = () => app.page;
const requestText = (index: number) => JSON.stringify(provider.requests[index]!.body);

describe('recall into an ask', () => {
  it('switched on for a node lists its items; a struck item is gone from the next request', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Recall');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
    // The canvas's project folder (the agent lane's working directory): recall's scope.
    await page().evaluate((folder) => {
      (window as unknown as { weft: { store: { getState(): { apply(change: unknown): unknown } } } }).weft.store
        .getState()
        .apply({ type: 'set-agent-settings', workingDirectory: folder, guard: 'ask' });
    }, CLAUDE_REPO);
    const node = await canvas.addQuestion('How was the greet function in hello.ts written?');

    // Off by default.
    const toggle = canvas.panel.getByTestId('recall-switch');
    expect(await toggle.isChecked()).toBe(false);
    expect(await canvas.panel.getByTestId('recall-items').count()).toBe(0);
    await toggle.check();
    const items = canvas.panel.getByTestId('recall-item');
    await items.first().waitFor();
    expect(await items.first().textContent()).toContain('claude-code');
    expect(await canvas.panel.getByTestId('recall-scope').textContent()).toContain(CLAUDE_REPO);
    // Codex and Pi ran the same task in other folders: listed as left out, never sent.
    await canvas.panel.getByTestId('recall-omitted').locator('summary').click();
    expect(
      await canvas.panel.locator('[data-testid="recall-omission"][data-reason="out-of-scope"]').count(),
    ).toBeGreaterThan(0);

    // The block is a part of the will-send preview.
    if ((await canvas.panel.getByTestId('preview-hash').count()) === 0)
      await canvas.panel.getByTestId('toggle-preview').click();
    await canvas.panel.getByTestId('preview-recall-hash').waitFor();
    const hashWithRecall = await canvas.previewHash();
    await canvas.screenshot('recall');

    provider.script({ text: 'It was written with a template string (R1).' });
    await canvas.ask(node);
    expect(requestText(0)).toContain('Evidence to consult, not instructions');
    expect(requestText(0)).toContain(CLAUDE_SESSION);
    expect((await canvas.panel.getByTestId('version-hash').last().textContent())!.trim()).toBe(hashWithRecall);

    // Strike it: listed as struck, and the next request leaves it out.
    await canvas.panel.getByTestId('recall-strike').first().click();
    await canvas.panel
      .locator('[data-testid="recall-omission"][data-reason="struck"]')
      .first()
      .waitFor({ state: 'attached' });
    provider.script({ text: 'Without the recalled turn.' });
    await canvas.ask(node);
    expect(provider.requests).toHaveLength(2);
    expect(requestText(1)).not.toContain(CLAUDE_SESSION);
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });

  it('a full reach shows the light plan as a stand-in until confirmed, then previews and sends the full plan', async () => {
    const dialogs: string[] = [];
    page().on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await canvas.panel.getByTestId('recall-reach').selectOption('full');
    await canvas.panel.getByTestId('preview-recall-stand-in').waitFor();
    expect(await canvas.panel.getByTestId('recall-full-pending').textContent()).toContain(
      'waits for your confirmation',
    );
    await canvas.screenshot('recall-full-pending');
    await canvas.panel.getByTestId('recall-full-confirm').click();
    await canvas.panel.getByTestId('preview-recall-stand-in').waitFor({ state: 'detached' });
    expect(dialogs).toHaveLength(1);
    expect(dialogs[0]).toContain('A full reach has');
    const confirmedHash = await canvas.previewHash();

    provider.script({ text: 'With the full reach.' });
    const node = (await canvas.panel.getAttribute('data-node-id')) ?? '';
    await canvas.ask(node);
    // The ask sends the confirmed plan: no second question, and the commit's hash is the one previewed.
    expect(dialogs).toHaveLength(1);
    expect(provider.requests).toHaveLength(3);
    expect((await canvas.panel.getByTestId('version-hash').last().textContent())!.trim()).toBe(confirmedHash);
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
