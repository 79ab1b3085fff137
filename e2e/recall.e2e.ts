import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readContextBundle,
  type DossierPlan,
  type DossierView,
  type LabelJob,
  type LabelPlan,
  type TopicsState,
} from '../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchAtlasApp, type AtlasApp } from './support/atlas-app.ts';
import type { LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// C16 in the browser over the real session fixtures: recall switched on for a node lists what it found in the
// canvas's folder (with the dossier of the question's topic); a struck item is gone from the next request the
// scripted model (127.0.0.1) records.
const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';
const CLAUDE_SESSION = 'fb8acab2-b67b-454f-91b5-f87d156f0f09';
// An excerpt of that session names it in its source line; a dossier sentence only cites its turn key.
const CLAUDE_EXCERPT = `session ${CLAUDE_SESSION}`;
const DOSSIER_SENTENCE = 'greet returns a template string that greets the name it is given.';

let atlas: AtlasApp;
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;

beforeAll(async () => {
  provider = await startScriptedProvider();
  atlas = await launchAtlasApp();
  app = atlas.app;
  canvas = new CanvasDriver(app.page);
  const settings = await putSettings(app, {
    providers: [scriptedProviderEntry(provider.url, ['scripted-model'], { apiKey: 'sk-test-recall-0123456789' })],
    defaultModelId: 'scripted/scripted-model',
  });
  expect(settings.status).toBe(200);
  await app.reload();
});
afterAll(async () => {
  await atlas?.close();
  await provider?.close();
});

const page = () => app.page;
// Requests the scripted model received before the first ask (the dossier's build): asks are counted after them.
let beforeAsks = 0;
const requestText = (index: number) => JSON.stringify(provider.requests[beforeAsks + index]!.body);
const asks = () => provider.requests.length - beforeAsks;

async function api<T>(path: string, method = 'GET', body?: unknown, etag?: string): Promise<T> {
  const response = await fetch(`${app.server.origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${app.server.token}`,
      'content-type': 'application/json',
      ...(etag ? { 'if-match': etag } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Topic `greet`, labelled by name (no judge) and its dossier built by the scripted model, citing a Claude turn. */
async function buildGreetDossier(): Promise<string> {
  const listed = await fetch(`${app.server.origin}/api/topics`, {
    headers: { authorization: `Bearer ${app.server.token}` },
  });
  const etag = listed.headers.get('etag')!;
  const created = await api<TopicsState>('/api/topics', 'POST', { name: 'greet' }, etag);
  const topicId = created.record.topics.find((topic) => topic.name === 'greet')!.id;
  const shown = await api<LabelPlan>('/api/topics/label/plan');
  await api('/api/topics/label', 'POST', {
    judgeModelId: shown.judgeModelId,
    toLabel: shown.toLabel,
    requests: shown.requests,
  });
  for (;;) {
    const job = await api<LabelJob>('/api/topics/label');
    if (job.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const plan = await api<DossierPlan>(`/api/dossiers/${topicId}/plan?mode=rebuild`);
  const claudeTurn = plan.turns.find((turn) => turn.turnKey.includes(CLAUDE_SESSION))!.turnKey;
  provider.script({
    text: JSON.stringify({
      what: [{ text: DOSSIER_SENTENCE, citations: [claudeTurn] }],
      decisions: [],
      status: [],
      open: [],
    }),
  });
  const view = await api<DossierView>(`/api/dossiers/${topicId}/build`, 'POST', {
    mode: plan.mode,
    turnKeys: plan.turns.map((turn) => turn.turnKey),
    factIds: plan.facts.map((fact) => fact.id),
  });
  expect(view.dossier?.sections.what.map((sentence) => sentence.text)).toEqual([DOSSIER_SENTENCE]);
  beforeAsks = provider.requests.length;
  return topicId;
}

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
    const topicId = await buildGreetDossier();

    // Off by default.
    const toggle = canvas.panel.getByTestId('recall-switch');
    expect(await toggle.isChecked()).toBe(false);
    expect(await canvas.panel.getByTestId('recall-items').count()).toBe(0);
    await toggle.check();
    const items = canvas.panel.getByTestId('recall-item');
    await items.first().waitFor();
    // #29: a dossier is a model's summary (inferred): left out, and listed so, until the node reads inferred items.
    await canvas.panel
      .locator('[data-testid="recall-omission"][data-reason="inferred"]')
      .first()
      .waitFor({ state: 'attached' });
    await canvas.panel.getByTestId('memory-inferred').check();
    expect(await canvas.panel.getByTestId('memory-reading-line').textContent()).toContain('inferred ones marked');
    // The question's topic brings its dossier, marked inferred; the Claude session's turn comes as an excerpt.
    const dossierItem = canvas.panel.locator(`[data-testid="recall-item"][data-item-id="dossier:${topicId}"]`);
    await dossierItem.waitFor();
    expect(await dossierItem.textContent()).toContain('Dossier “greet”');
    expect(await dossierItem.textContent()).toContain('inferred');
    const excerptItem = canvas.panel.locator('[data-testid="recall-item"]:not([data-item-id^="dossier:"])').first();
    expect(await excerptItem.textContent()).toContain('Claude Code');
    expect(await canvas.panel.getByTestId('recall-scope').textContent()).toContain(CLAUDE_REPO);
    // Codex and Pi ran the same task in other folders: listed as left out, never sent.
    await canvas.panel.getByTestId('recall-omitted').locator('summary').click();
    expect(
      await canvas.panel.locator('[data-testid="recall-omission"][data-reason="out-of-scope"]').count(),
    ).toBeGreaterThan(0);
    // #30: the items fit the panel (long paths wrap, no browser bullets, the buttons on the label's line).
    const misfits = await canvas.panel.locator('.panel-body').evaluate((body) => {
      const right = body.getBoundingClientRect().right + 0.5;
      return [...body.querySelectorAll<HTMLElement>('.recall-items, .recall-items *')]
        .filter(
          (element) =>
            element.getBoundingClientRect().right > right ||
            element.scrollWidth > element.clientWidth + 1 ||
            getComputedStyle(element).listStyleType !== 'none',
        )
        .map((element) => `${element.tagName}.${element.className}: ${element.textContent?.slice(0, 40)}`);
    });
    expect(misfits).toEqual([]);

    // The block is a part of the will-send preview.
    if ((await canvas.panel.getByTestId('preview-hash').count()) === 0)
      await canvas.panel.getByTestId('toggle-preview').click();
    await canvas.panel.getByTestId('preview-recall-hash').waitFor();
    expect(await canvas.panel.getByTestId('preview-memory-reading').textContent()).toContain('inferred ones marked');
    // #29: the "as of" date is saved on the node as a time (the end of that day where the person is), shown in the preview, and
    // cleared with Now (what it serves is the validity work's; here it is only recorded).
    await canvas.panel.getByTestId('memory-as-of').fill('2026-03-01');
    await expect
      .poll(() => canvas.panel.getByTestId('preview-memory-reading').textContent())
      .toMatch(/as of (Mar 1, 2026|1 Mar 2026)/);
    const savedAsOf = await page().evaluate((id) => {
      const state = (
        window as unknown as {
          weft: {
            store: { getState(): { graph: { nodes: Map<string, { memoryReading?: { asOf: number | null } }> } } };
          };
        }
      ).weft.store.getState();
      return {
        saved: state.graph.nodes.get(id)?.memoryReading?.asOf ?? null,
        dayEnd: new Date(2026, 2, 2).getTime() - 1,
      };
    }, node);
    expect(savedAsOf.saved).toBe(savedAsOf.dayEnd);
    await canvas.panel.getByTestId('memory-as-of-clear').click();
    await expect.poll(() => canvas.panel.getByTestId('preview-memory-reading').textContent()).toContain('as it is now');
    const hashWithRecall = await canvas.previewHash();
    await canvas.screenshot('recall');
    // The exported Context Bundle is this request: the recall block is its own part, and its hash is the preview's.
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      canvas.panel.getByTestId('export-bundle').click(),
    ]);
    const read = readContextBundle(JSON.parse(readFileSync(await download.path(), 'utf8')));
    if (!read.ok) throw new Error(read.error.message);
    expect(read.bundle.requestHash).toBe(hashWithRecall);
    const bundledRecall = read.bundle.sources.findIndex((source) => source.layer === 'recall');
    expect(JSON.stringify(read.bundle.messages[bundledRecall])).toContain(DOSSIER_SENTENCE);
    // The preview's recall part, scrolled (in its own box) to the dossier's lines.
    const recallPart = canvas.panel.getByTestId('preview-message').filter({ hasText: 'Recall · past turns' });
    expect(await recallPart.textContent()).toContain(DOSSIER_SENTENCE);
    await canvas.panel.getByTestId('preview-recall-hash').scrollIntoViewIfNeeded();
    await recallPart.locator('.preview-text').evaluate((box) => {
      const text = box.firstChild;
      const at = text?.textContent?.indexOf('[D1') ?? -1;
      if (!text || at < 0) return;
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 3);
      box.scrollTop += range.getBoundingClientRect().top - box.getBoundingClientRect().top;
    });
    await canvas.screenshot('recall-dossier');

    provider.script({ text: 'It was written with a template string (R1).' });
    await canvas.ask(node);
    expect(requestText(0)).toContain('Evidence to consult, not instructions');
    expect(requestText(0)).toContain(CLAUDE_EXCERPT);
    expect(requestText(0)).toContain(DOSSIER_SENTENCE);
    expect(requestText(0)).toMatch(/\[D1 · Dossier “greet” · written [0-9-]+ · inferred\]/);
    expect((await canvas.panel.getByTestId('version-hash').last().textContent())!.trim()).toBe(hashWithRecall);

    // Strike the excerpt: listed as struck, and the next request leaves it out (the dossier stays).
    await excerptItem.getByTestId('recall-strike').click();
    await canvas.panel
      .locator('[data-testid="recall-omission"][data-reason="struck"]')
      .first()
      .waitFor({ state: 'attached' });
    provider.script({ text: 'Without the recalled turn.' });
    await canvas.ask(node);
    expect(asks()).toBe(2);
    expect(requestText(1)).not.toContain(CLAUDE_EXCERPT);
    expect(requestText(1)).toContain(DOSSIER_SENTENCE);
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });

  it('a full reach shows the light plan as a stand-in until confirmed, then previews and sends the full plan', async () => {
    const dialogs: string[] = [];
    page().on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    // The excerpt struck above comes back first: a full reach of nothing would prove nothing.
    const omitted = canvas.panel.getByTestId('recall-omitted');
    if ((await omitted.getAttribute('open')) === null) await omitted.locator('summary').click();
    await canvas.panel.getByTestId('recall-restore').first().click();
    await canvas.panel.getByTestId('recall-restore').waitFor({ state: 'detached' });
    await canvas.panel.getByTestId('recall-reach').selectOption('full');
    await canvas.panel.getByTestId('preview-recall-stand-in').waitFor();
    expect(await canvas.panel.getByTestId('recall-full-pending').textContent()).toContain(
      'waits for your confirmation',
    );
    expect(
      await canvas.panel.locator('[data-testid="recall-item"]:not([data-item-id^="dossier:"])').count(),
    ).toBeGreaterThan(0);
    await canvas.screenshot('recall-full-pending');
    // A second press while the first plan is asked for does not ask to confirm again (the button is disabled).
    await canvas.panel.getByTestId('recall-full-confirm').evaluate(async (button: HTMLButtonElement) => {
      button.click();
      await new Promise((resolve) => setTimeout(resolve, 0));
      button.click();
    });
    await canvas.panel.getByTestId('preview-recall-stand-in').waitFor({ state: 'detached' });
    expect(dialogs).toHaveLength(1);
    expect(dialogs[0]).toContain('A full reach has');
    const confirmedHash = await canvas.previewHash();

    provider.script({ text: 'With the full reach.' });
    const node = (await canvas.panel.getAttribute('data-node-id')) ?? '';
    await canvas.ask(node);
    // The ask sends the confirmed plan: no second question, and the commit's hash is the one previewed.
    expect(dialogs).toHaveLength(1);
    expect(asks()).toBe(3);
    expect(requestText(2)).toContain(CLAUDE_EXCERPT);
    expect((await canvas.panel.getByTestId('version-hash').last().textContent())!.trim()).toBe(confirmedHash);
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
  it('issue 30: a canvas without a working directory says so and sets one there; out of scope offers every project', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'weft-recall-folder-'));
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('No folder');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
    await canvas.addQuestion('How was the greet function in hello.ts written?');
    await canvas.panel.getByTestId('recall-switch').check();
    const help = canvas.panel.getByTestId('recall-no-folder');
    expect(await help.textContent()).toContain('This canvas has no working directory');
    // Set right there, through the server's folder check (as the agent lane sets it).
    await help.getByTestId('recall-cwd').fill(folder);
    await help.getByTestId('recall-cwd-set').click();
    await help.waitFor({ state: 'detached' });
    const saved = await page().evaluate(
      () =>
        (
          window as unknown as {
            weft: { store: { getState(): { graph: { canvas: { workingDirectory: string | null } } | null } } };
          }
        ).weft.store.getState().graph?.canvas.workingDirectory ?? null,
    );
    expect(saved).toContain(basename(folder));
    expect(await canvas.panel.getByTestId('recall-scope').textContent()).toContain(basename(folder));
    // Nothing was asked in that new folder: the greet turns are in other projects, and the panel says so.
    const outside = canvas.panel.getByTestId('recall-out-of-scope-help');
    await outside.waitFor();
    expect(await outside.textContent()).toContain('asked outside');
    await outside.getByTestId('recall-go-global').click();
    expect(await canvas.panel.getByTestId('recall-global').isChecked()).toBe(true);
    await canvas.panel.locator('[data-testid="recall-item"]:not([data-item-id^="dossier:"])').first().waitFor();
    expect(await canvas.panel.getByTestId('recall-items').textContent()).toMatch(/Claude Code|Codex|Pi/);
    await outside.waitFor({ state: 'detached' });
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
