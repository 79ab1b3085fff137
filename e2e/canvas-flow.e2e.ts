import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { storedCanvasDocument, type CanvasDocument } from '../protocol/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// One person's session, step by step, against the real server and the built app in Chromium.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
const ids = { upstream: '', downstream: '', third: '' };
let dispatchedHash = '';

beforeAll(async () => {
  provider = await startScriptedProvider();
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

const page = () => app.page;

describe('Weft in the browser', () => {
  it('opens on the demo canvas the first time, with demo answers labelled and a stale answer', async () => {
    await page().locator('[data-testid="node-card"]').first().waitFor();
    expect(await page().locator('[data-testid="node-card"]').count()).toBeGreaterThan(5);
    expect(await page().locator('.badge.demo').count()).toBeGreaterThan(0);
    expect(Number(await page().getByTestId('stale-count').textContent())).toBeGreaterThan(0);
    // The README's canvas-demo.png is the first hour's (e2e/first-hour.e2e.ts): one writer per picture.

    const staleCard = page().locator('[data-testid="node-card"][data-stale="true"]').first();
    await staleCard.locator('.card-header').click();
    await canvas.panel.getByTestId('preview').waitFor();
    expect(
      (await canvas.panel.getByTestId('stale-mark').count()) +
        (await canvas.panel.getByTestId('stale-section').count()),
    ).toBeGreaterThan(0);
    await canvas.screenshot('node-panel-preview');
  });

  it('creates a canvas, asks a question with the offline receipt model and wires a second one', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Sky questions');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    ids.upstream = await canvas.addQuestion('What is Rayleigh scattering?');
    await canvas.ask(ids.upstream);
    expect(await canvas.panel.getByTestId('panel-answer').textContent()).toMatch(/receipt|request/i);
    expect(await canvas.card(ids.upstream).getByTestId('model-badge').textContent()).toBe('offline receipt');

    ids.downstream = await canvas.addQuestion('So why is the sky blue?');
    // A new card is placed beside the selected one (to its right); dragging it further keeps the two apart.
    await canvas.move(ids.downstream, 80, 40);
    await canvas.connect(ids.upstream, ids.downstream);
    await page().locator('.react-flow__edge').first().waitFor();
    ids.third = await canvas.addQuestion('And what about sunsets?');
    await canvas.connect(ids.downstream, ids.third);
    await page().waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 2);
  });

  it('previews the upstream in order, and the dispatch commits the same hash', async () => {
    await canvas.open(ids.downstream);
    expect(await canvas.previewSources()).toEqual([ids.upstream, ids.upstream, ids.downstream]);
    const hash = await canvas.previewHash();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    await canvas.ask(ids.downstream);
    expect((await canvas.panel.getByTestId('version-hash').first().textContent())!.trim()).toBe(hash);
    dispatchedHash = hash;

    await page().getByTestId('tab-events').click();
    const commits = await page()
      .locator('[data-testid="event-row"][data-op="commit"]')
      .evaluateAll((rows) => rows.map((row) => JSON.parse(row.getAttribute('data-meta')!).requestHash));
    expect(commits).toContain(hash);
    await page().getByTestId('tab-canvas').click();
  });

  it('an upstream edit turns the downstream stale, and the stale answer enters context with the stale mark', async () => {
    await canvas.editQuestion(ids.upstream, 'What is Mie scattering?');
    await canvas.ask(ids.upstream);
    await page().waitForSelector(`[data-testid="node-card"][data-node-id="${ids.downstream}"][data-stale="true"]`);
    await canvas.open(ids.downstream);
    await canvas.panel.getByTestId('stale-section').waitFor();
    expect(await canvas.panel.getByTestId('stale-section').textContent()).toContain('What is Mie scattering?');
    expect(await canvas.previewHash()).not.toBe(dispatchedHash);
    await canvas.open(ids.third);
    const marked = canvas.panel.locator(
      `[data-testid="preview-message"][data-source-node="${ids.downstream}"] [data-testid="stale-mark"]`,
    );
    expect(await marked.count()).toBe(1);
  });

  it('Replay shows the count and regenerates, keeping the old version', async () => {
    await page().getByTestId('replay-chip').click();
    await page().getByTestId('replay-dialog').waitFor();
    expect(await page().getByTestId('replay-count').textContent()).toBe('1');
    expect(Number((await page().getByTestId('replay-tokens').textContent())!.replace(/\D/g, ''))).toBeGreaterThan(0);
    await canvas.screenshot('replay-dialog');
    await page().getByTestId('replay-confirm').click();
    await page().waitForSelector(`[data-testid="node-card"][data-node-id="${ids.downstream}"][data-stale="false"]`);
    await canvas.open(ids.downstream);
    expect(await canvas.panel.getByTestId('version-item').count()).toBe(2);
    // Nothing stale: the chip is gone rather than saying "0 stale".
    expect(await page().getByTestId('replay-chip').count()).toBe(0);
  });

  it('editing a node’s own question marks its answer stale, and the panel says the question was edited', async () => {
    await canvas.editQuestion(ids.downstream, 'So why is the sky blue? At noon, say.');
    await page().waitForSelector(`[data-testid="node-card"][data-node-id="${ids.downstream}"][data-stale="true"]`);
    expect(await page().getByTestId('stale-count').textContent()).toBe('1');
    await canvas.panel.getByTestId('stale-section').waitFor();
    const edited = await canvas.panel.getByTestId('question-edited').textContent();
    expect(edited).toContain('The question was edited');
    expect(edited).toContain('“So why is the sky blue?”');
    await canvas.ask(ids.downstream);
    await page().waitForSelector(`[data-testid="node-card"][data-node-id="${ids.downstream}"][data-stale="false"]`);
    expect(await canvas.panel.getByTestId('stale-section').count()).toBe(0);
  });

  it('archiving the upstream removes it from the preview', async () => {
    await canvas.open(ids.upstream);
    await canvas.panel.getByTestId('archive-toggle').click();
    await canvas.card(ids.upstream).getByTestId('badge-archived').waitFor();
    await canvas.open(ids.downstream);
    expect(await canvas.previewSources()).toEqual([ids.downstream]);
    await canvas.open(ids.third);
    expect(await canvas.previewSources()).not.toContain(ids.upstream);
  });

  it('a reload keeps everything', async () => {
    const before = await page().evaluate(() =>
      JSON.stringify(
        (window as unknown as { weft: { store: { getState(): { exportDocument(): unknown } } } }).weft.store
          .getState()
          .exportDocument(),
      ),
    );
    await page().evaluate(() =>
      (window as unknown as { weft: { store: { getState(): { flush(): Promise<void> } } } }).weft.store
        .getState()
        .flush(),
    );
    await app.reload();
    await canvas.card(ids.downstream).waitFor();
    const after = await page().evaluate(() =>
      JSON.stringify(
        (window as unknown as { weft: { store: { getState(): { exportDocument(): unknown } } } }).weft.store
          .getState()
          .exportDocument(),
      ),
    );
    expect(JSON.parse(after)).toEqual(JSON.parse(before));
    expect(await canvas.card(ids.upstream).getByTestId('badge-archived').count()).toBe(1);
  });

  it('exports .weft.json and imports it back identically', async () => {
    await page().getByTestId('canvas-menu').click();
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page().getByTestId('canvas-export').click(),
    ]);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(exported.format).toBe('weft.canvas');
    expect(JSON.stringify(exported)).not.toMatch(/sk-[a-z0-9]/i);
    await page()
      .getByTestId('canvas-import-file')
      .setInputFiles({
        name: 'sky.weft.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(exported)),
      });
    await page().getByTestId('toast').filter({ hasText: 'Imported' }).waitFor();
    const imported = (await page().evaluate(() =>
      (window as unknown as { weft: { store: { getState(): { exportDocument(): unknown } } } }).weft.store
        .getState()
        .exportDocument(),
    )) as typeof exported;
    expect(imported.canvas.id).not.toBe(exported.canvas.id);
    // The file holds the stored form (format 4: each value another record holds stored once).
    expect(
      storedCanvasDocument({ ...imported, canvas: { ...imported.canvas, id: exported.canvas.id } } as CanvasDocument),
    ).toEqual(exported);

    await page()
      .getByTestId('canvas-import-file')
      .setInputFiles({
        name: 'future.weft.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ ...exported, version: 99 })),
      });
    await page().locator('[data-testid="toast"][data-code="newer-version"]').waitFor();
  });

  it('the event log verifies intact and downloads as CSV', async () => {
    await page().getByTestId('tab-events').click();
    await page().getByTestId('verify').click();
    expect(await page().getByTestId('verify-result').textContent()).toMatch(/intact/);
    await page().getByTestId('event-filter-op').selectOption('commit');
    expect(await page().locator('[data-testid="event-row"]').count()).toBeGreaterThan(0);
    expect(await page().locator('[data-testid="event-row"]:not([data-op="commit"])').count()).toBe(0);
    await page().getByTestId('event-filter-op').selectOption('');
    await canvas.screenshot('event-log');
    const [download] = await Promise.all([page().waitForEvent('download'), page().getByTestId('export-csv').click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/op/);
    expect(csv).toContain(dispatchedHash);
  });

  it('configures an OpenAI-compatible provider in Settings and answers through it', async () => {
    provider.setDefault({ text: 'Scattered sunlight, mostly **blue**.', chunkSize: 4, chunkDelayMs: 5 });
    await page().getByTestId('tab-settings').click();
    await page().getByTestId('new-provider-kind').selectOption('openai-compatible');
    await page().getByTestId('add-provider').click();
    const row = page().locator('[data-testid="provider-row"]').last();
    await row.getByTestId('provider-id').fill('scripted');
    await row.getByTestId('provider-base-url').fill(`${provider.url}/v1`);
    await row.getByTestId('provider-key').fill('sk-test-secret-123');
    await row.getByTestId('provider-models').fill('scripted-model');
    // Keeping copies of session files is on by default for every runner; one runner can be switched off.
    expect(await page().getByTestId('archive-enabled').isChecked()).toBe(true);
    expect(await page().getByTestId('archive-codex').isChecked()).toBe(true);
    await page().getByTestId('archive-codex').uncheck();
    await page().getByTestId('save-settings').click();
    await page().getByTestId('settings-saved').waitFor();
    // The form shows what the server stored (it reloads from the PUT's answer).
    expect(await page().getByTestId('archive-codex').isChecked()).toBe(false);
    expect(await page().getByTestId('archive-pi').isChecked()).toBe(true);
    await page().getByTestId('key-saved').first().waitFor();
    expect(await page().locator('input[type="password"]').first().inputValue()).toBe('');
    await canvas.screenshot('settings');

    await page().getByTestId('tab-canvas').click();
    await canvas.open(ids.downstream);
    const modelId = await canvas.panel
      .getByTestId('model-picker')
      .locator('option')
      .evaluateAll((options) =>
        options.map((option) => (option as HTMLOptionElement).value).find((value) => value.includes('scripted-model')),
      );
    expect(modelId).toBeTruthy();
    await canvas.panel.getByTestId('model-picker').selectOption(modelId!);
    await canvas.ask(ids.downstream);
    expect(await canvas.panel.getByTestId('panel-answer').textContent()).toContain('Scattered sunlight');
    expect(provider.requests.length).toBeGreaterThan(0);
    const body = provider.requests[provider.requests.length - 1]!.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(body.messages)).toContain('So why is the sky blue?');
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });

  it('Stop aborts a streaming answer and the provider request with it', async () => {
    const before = provider.requests.length;
    provider.script({ hang: true });
    await canvas.open(ids.downstream);
    const versions = await canvas.panel.getByTestId('version-item').count();
    await canvas.panel.getByTestId('ask').click();
    await canvas.panel.getByTestId('stop').waitFor();
    await provider.waitForRequests(before + 1);
    await canvas.panel.getByTestId('stop').click();
    const ended = await provider.waitForEnd(before);
    expect(ended.aborted).toBe(true);
    await canvas.panel.getByTestId('ask').waitFor();
    // A partial answer is kept as a "stopped" version, never as a complete one.
    const statuses = await page().evaluate(
      (nodeId) =>
        (
          window as unknown as {
            weft: { store: { getState(): { graph: { nodes: Map<string, { versions: { status: string }[] }> } } } };
          }
        ).weft.store
          .getState()
          .graph.nodes.get(nodeId)!
          .versions.map((version) => version.status),
      ids.downstream,
    );
    expect(statuses.slice(versions).every((status) => status !== 'complete')).toBe(true);
  });

  it('switches a wire to a dashed reference from its toolbar; Ctrl+Z undoes it; Ctrl+F searches', async () => {
    const source = await canvas.addQuestion('Which gas scatters most?');
    const target = await canvas.addQuestion('Does humidity matter?');
    await canvas.connect(source, target);
    const edge = page()
      .locator(`.react-flow__edge[data-id]`)
      .filter({ has: page().locator('path') })
      .last();
    await edge.click({ force: true });
    await page().getByTestId('wire-toolbar').waitFor();
    await page().getByTestId('wire-toolbar').getByText('Dashed · quote').click();
    await canvas.open(target);
    let layers = await canvas.panel
      .getByTestId('preview-message')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-layer')));
    expect(layers).toEqual(['references', 'question']);

    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 40, y: 300 } });
    await page().keyboard.press('Control+z');
    await canvas.open(target);
    layers = await canvas.panel
      .getByTestId('preview-message')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-layer')));
    expect(layers).toEqual(['chain', 'question']);

    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 40, y: 300 } });
    await page().keyboard.press('Control+f');
    await page().getByTestId('canvas-search').locator('input').fill('humidity');
    expect(await page().getByTestId('search-count').textContent()).toBe('1 found');
    await page().keyboard.press('Escape');
  });
});
