import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAUDE_SUBAGENT_SESSION,
  CODEX_MULTI_SESSION,
  hashTree,
  PI_MULTI_FILE,
  PI_MULTI_SESSION,
  piTurnLines,
} from '../server/atlas/testing/atlas-fixtures.ts';
import { canvasSnapshot, launchAtlasApp, type AtlasApp, type CanvasSnapshot } from './support/atlas-app.ts';
import { CanvasDriver } from './support/canvas-driver.ts';

// A person with Claude Code, Codex and Pi history: browse, mirror, ask downstream, follow live, ask why.
let atlas: AtlasApp;
let canvas: CanvasDriver;
let hashesBefore: Record<string, string>;
let piOriginal: Buffer;
const appended = piTurnLines(
  'Add a third item: ship it. [live:3]',
  'Added “ship it” as a third unchecked item in TODO.md.',
  3,
);

beforeAll(async () => {
  atlas = await launchAtlasApp();
  canvas = new CanvasDriver(atlas.app.page);
  hashesBefore = hashTree(atlas.fixtures.sessions);
  piOriginal = readFileSync(join(atlas.fixtures.sessions, PI_MULTI_FILE));
}, 120_000);
afterAll(async () => {
  await atlas?.close();
});

const page = () => atlas.app.page;
const snapshot = () => page().evaluate<CanvasSnapshot>(canvasSnapshot);
const sessionCards = () => page().getByTestId('atlas-session');
const clearToasts = () =>
  page().evaluate(() =>
    (window as unknown as { weft: { store: { setState(patch: object): void } } }).weft.store.setState({ toasts: [] }),
  );
const fitView = () =>
  page().evaluate(() =>
    (window as unknown as { weft: { commands: { run(id: string): unknown } } }).weft.commands.run('fit-view'),
  );

/** A screenshot with the toasts cleared and the canvas fitted around the open panel. */
async function canvasScreenshot(name: string): Promise<void> {
  await clearToasts();
  await fitView();
  await page().waitForTimeout(450);
  await canvas.screenshot(name);
}

async function openAtlas(): Promise<void> {
  if (
    !(await page()
      .getByTestId('atlas-view')
      .isVisible()
      .catch(() => false))
  )
    await page().getByTestId('tab-atlas').click();
  await page().getByTestId('atlas-view').waitFor();
  await page().waitForFunction(() => document.querySelectorAll('[data-testid="atlas-session"]').length > 0);
}

async function mirrorFromAtlas(
  sessionId: string,
  where: 'mirror-new' | 'mirror-current',
  follow = false,
): Promise<void> {
  await openAtlas();
  await page().locator(`[data-testid="atlas-session"][data-session-id="${sessionId}"]`).click();
  const detail = page().locator(`[data-testid="session-detail"][data-session-id="${sessionId}"]`);
  await detail.getByTestId('session-turn').first().waitFor();
  if (follow) await detail.getByTestId('follow-live').check();
  await detail.getByTestId(where).click();
  await page().getByTestId('atlas-view').waitFor({ state: 'detached' });
  await page().locator('[data-testid="node-card"]').first().waitFor();
}

describe('Session Atlas in the app', () => {
  it('browses runners, project folders and session cards, with search, runner filter, sort and subagent toggle', async () => {
    await openAtlas();
    expect(await sessionCards().count()).toBe(13);
    expect(await page().getByTestId('runner-claude-code').textContent()).toContain('5');
    expect(await page().getByTestId('atlas-project').count()).toBe(13);
    const withRun = page().locator(`[data-testid="atlas-session"][data-session-id="${CLAUDE_SUBAGENT_SESSION}"]`);
    expect(await withRun.getByTestId('has-subagents').count()).toBe(1);
    await page().waitForTimeout(300);
    await clearToasts();
    // The README's atlas-browser.png is the first hour's (e2e/first-hour.e2e.ts): one writer per picture.

    await page().getByTestId('atlas-search').fill('first item as done');
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="atlas-session"]').length === 3);
    await page().getByTestId('atlas-search').fill('');
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="atlas-session"]').length === 13);

    await page().getByTestId('runner-pi').click();
    await page().waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="atlas-session"]')].every(
          (card) => card.getAttribute('data-runner') === 'pi',
        ) && document.querySelectorAll('[data-testid="atlas-session"]').length === 4,
    );
    await page().getByTestId('runner-all').click();

    await page().getByTestId('atlas-sort').selectOption('turns');
    await page().waitForFunction(
      () =>
        document.querySelector('[data-testid="atlas-session"] [data-testid="turn-count"]')?.textContent === '2 turns',
    );

    await page().getByTestId('atlas-subagents').check();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="atlas-session"]').length === 14);
    await page().getByTestId('atlas-subagents').uncheck();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="atlas-session"]').length === 13);
  });

  it('mirrors a Claude Code session with a subagent run onto a new canvas, the run as a branch beside its turn', async () => {
    await page().locator(`[data-testid="atlas-session"][data-session-id="${CLAUDE_SUBAGENT_SESSION}"]`).click();
    await page().getByTestId('subagent-run').waitFor();
    await page().waitForTimeout(200);
    await clearToasts();
    await canvas.screenshot('atlas-session-detail');
    await mirrorFromAtlas(CLAUDE_SUBAGENT_SESSION, 'mirror-new');
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 2);
    const state = await snapshot();
    const [parent, branch] = [
      state.nodes.find((node) => !node.delegatedBy)!,
      state.nodes.find((node) => node.delegatedBy)!,
    ];
    expect(branch.delegatedBy).toBe(parent.turnKey);
    expect(branch.position.x).toBeGreaterThan(parent.position.x);
    expect(state.wires).toEqual([{ from: parent.id, to: branch.id, kind: 'solid' }]);
    expect(state.events.some((event) => event.op === 'mirror' && event.meta.subagentTurns === 1)).toBe(true);
    expect(await canvas.card(branch.id).locator('.badge.mirror-subagent').count()).toBe(1);
    await canvas.open(branch.id);
    await canvasScreenshot('atlas-subagent-branch');
  });

  it('mirrors a Codex session, and a question downstream of a mirrored turn previews the execution-record line', async () => {
    await mirrorFromAtlas(CODEX_MULTI_SESSION, 'mirror-new');
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 2);
    const state = await snapshot();
    const ledger = state.ledgers.find((item) => item.sessionId === CODEX_MULTI_SESSION)!;
    const last = ledger.nodeIdByTurnKey[ledger.turnKeys[ledger.turnKeys.length - 1]!]!;

    await canvas.open(last);
    await canvas.panel.getByTestId('mirror-extras').waitFor();
    expect(await canvas.panel.getByTestId('include-execution').isChecked()).toBe(false);
    const question = await canvas.addQuestion('Which items are still open?');
    await canvas.move(question, 420, 0);
    await canvas.connect(last, question);
    await page().locator('.react-flow__edge').nth(1).waitFor();
    await canvas.open(question);
    const preview = canvas.panel.getByTestId('preview');
    await preview.waitFor();
    await page().waitForFunction(() =>
      (document.querySelector('[data-testid="preview"]')?.textContent ?? '').includes(
        'their contents were left out of this context',
      ),
    );
    const text = (await preview.textContent())!;
    expect(text).toContain('Mark the first item as done');
    expect(text).toMatch(
      /\[Execution: \d+ tool steps? touched [^\]]*TODO\.md; their contents were left out of this context\]/,
    );
    expect(await canvas.previewSources()).toContain(last);

    // Including the record is a toggle in the mirror node's panel; an edit shows it differs from its source.
    await canvas.open(last);
    await canvas.panel.getByTestId('include-execution').check();
    await canvas.panel.getByTestId('mirror-answer').fill('My shorter summary of the answer.');
    await canvas.panel.getByTestId('mirror-answer').blur();
    await canvas.panel.getByTestId('mirror-differs').waitFor();
    await canvas.card(last).getByTestId('mirror-edited').waitFor();
    await canvas.open(question);
    await page().waitForFunction(() =>
      (document.querySelector('[data-testid="preview"]')?.textContent ?? '').includes('[Execution record:'),
    );
    expect(await canvas.panel.getByTestId('preview').textContent()).toContain('My shorter summary of the answer.');
    await canvas.open(last);
    await canvasScreenshot('atlas-mirrored-canvas');
  });

  it('mirrors a Pi session with live follow: appended lines appear as a new turn; mirroring again adds no duplicates', async () => {
    await mirrorFromAtlas(PI_MULTI_SESSION, 'mirror-new', true);
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 2);
    expect((await snapshot()).ledgers[0]!.following).toBe(true);
    const follows = JSON.parse(readFileSync(join(atlas.fixtures.weftHome, 'follows.json'), 'utf8'));
    expect(follows.follows).toEqual([expect.objectContaining({ runner: 'pi', sessionId: PI_MULTI_SESSION })]);

    const before = await snapshot();
    const started = Date.now();
    appendFileSync(join(atlas.fixtures.sessions, PI_MULTI_FILE), appended);
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 3, undefined, {
      timeout: 10_000,
    });
    const latency = Date.now() - started;
    expect(latency).toBeLessThan(5000);
    await page().locator('[data-testid="node-card"]', { hasText: 'Add a third item: ship it.' }).waitFor();
    const after = await snapshot();
    for (const node of before.nodes)
      expect(after.nodes.find((item) => item.id === node.id)?.position).toEqual(node.position);
    const added = after.nodes.find((node) => node.question?.includes('Add a third item'))!;
    expect(after.wires).toContainEqual({
      from: before.ledgers[0]!.nodeIdByTurnKey[before.ledgers[0]!.turnKeys[1]!],
      to: added.id,
      kind: 'solid',
    });

    await mirrorFromAtlas(PI_MULTI_SESSION, 'mirror-current');
    await page().getByTestId('toast').filter({ hasText: 'no new turns' }).waitFor();
    const again = await snapshot();
    expect(again.nodes.length).toBe(3);
    expect(new Set(again.nodes.map((node) => node.turnKey)).size).toBe(3);
    expect(again.wires.length).toBe(2);
  });

  it('answers why from the canvas: a file → the turns that touched it → the mirror node, selected and centred', async () => {
    const state = await snapshot();
    const ledger = state.ledgers[0]!;
    const first = ledger.nodeIdByTurnKey[ledger.turnKeys[0]!]!;
    await canvas.open(first);
    await canvas.panel.getByTestId('why-this-file').first().click();
    await page().getByTestId('why-view').waitFor();
    await page().getByTestId('why-hit').first().waitFor();
    expect(await page().getByTestId('why-input').inputValue()).toBe('/tmp/realsessions/out/pi/multi-turn/repo/TODO.md');
    const hits = await page()
      .getByTestId('why-hit')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-turn-key')));
    expect(hits).toContain(ledger.turnKeys[0]);
    await clearToasts();
    await canvas.screenshot('atlas-why');

    // Read-only turns are left out unless asked for (like `weft why`); the toggle asks the same target again.
    const includeRead = page().getByTestId('why-include-read');
    expect(await includeRead.isChecked()).toBe(false);
    const [withReads] = await Promise.all([
      page().waitForResponse(
        (response) => response.url().includes('/api/atlas/why?') && response.url().includes('includeRead=true'),
      ),
      includeRead.check(),
    ]);
    expect(withReads.ok()).toBe(true);
    await page().getByTestId('why-hit').first().waitFor();
    await includeRead.uncheck();

    // Opening a turn of a session mirrored on another canvas switches to that canvas.
    await page().getByTestId('why-input').fill('/tmp/realsessions/out/codex/multi-turn/repo/TODO.md');
    await page().getByTestId('why-ask').click();
    await page().locator('[data-testid="why-hit"]', { hasText: 'Mark the first item' }).getByTestId('why-open').click();
    await page().getByTestId('why-view').waitFor({ state: 'detached' });
    const codex = await snapshot();
    const codexLedger = codex.ledgers.find((item) => item.sessionId === CODEX_MULTI_SESSION)!;
    const target = codexLedger.nodeIdByTurnKey[codexLedger.turnKeys[1]!]!;
    await page().locator(`[data-testid="node-panel"][data-node-id="${target}"]`).waitFor();
    expect(
      await page().evaluate(
        () =>
          (
            window as unknown as { weft: { store: { getState(): { selectedNodeIds: string[] } } } }
          ).weft.store.getState().selectedNodeIds,
      ),
    ).toEqual([target]);
  });

  it('never wrote a byte under the session roots', async () => {
    const after = hashTree(atlas.fixtures.sessions);
    expect(Object.keys(after).sort()).toEqual(Object.keys(hashesBefore).sort());
    for (const path of Object.keys(after))
      if (path !== PI_MULTI_FILE) expect(after[path], path).toBe(hashesBefore[path]);
    // The one file this test appended to holds exactly the original bytes plus the appended lines.
    expect(
      readFileSync(join(atlas.fixtures.sessions, PI_MULTI_FILE)).equals(
        Buffer.concat([piOriginal, Buffer.from(appended)]),
      ),
    ).toBe(true);
    expect(atlas.app.pageErrors).toEqual([]);
  });
});
