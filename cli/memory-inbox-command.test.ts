import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_SETTING, type MemoryProposal } from '../protocol/index.ts';
import { TestCanvas } from '../src/core/index.ts';
import { admitFact, emptyInbox, emptyProfile, proposeFact, type MemoryEventDraft } from '../src/core/memory/index.ts';
import { testCandidate, testContext, testExchange } from '../src/core/memory/memory-test-kit.ts';
import { CanvasStore } from '../runtime/fs/index.ts';
import { MemoryStore } from '../runtime/memory/index.ts';
import { sampleCanvas } from '../tests/support/index.ts';
import { startTestServer } from '../tests/support/test-server.ts';
import { runWeftInProcess } from './run-weft.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'weft-cli-inbox-'));
  mkdirSync(join(folder, 'sessions'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const home = () => join(folder, 'home');
const weft = (...argv: string[]) =>
  runWeftInProcess(argv, {
    cwd: folder,
    env: { WEFT_HOME: home(), WEFT_SESSION_ROOTS: join(folder, 'sessions') },
  });

/** Two proposals written by the real store, as the judge route leaves them (the rule path, one ask each). */
async function twoProposals(): Promise<MemoryProposal[]> {
  const store = new MemoryStore({ directory: join(home(), 'memory'), now: () => 1_000, newId: () => 'e' });
  const context = testContext(1_700_000_000_000, 'p');
  let inbox = emptyInbox();
  const events: MemoryEventDraft[] = [];
  for (const sentence of ['I prefer tabs over spaces.', 'I use Neovim for everything.']) {
    context.tick();
    const verdict = admitFact(
      testCandidate(sentence, sentence, { path: 'rule' }),
      testExchange(sentence),
      emptyProfile(),
      0,
    );
    if (!verdict.admitted) throw new Error(verdict.reason);
    const proposed = proposeFact(inbox, verdict.fact, context)!;
    inbox = proposed.inbox;
    events.push(proposed.event);
  }
  await store.update(null, () => ({ change: { inbox, events }, result: null }));
  // The turn the proposals rest on, stored as it is when a judgement proposes (a gone turn is put aside).
  const canvas = sampleCanvas('canvas-1');
  canvas.nodes = canvas.nodes.map((node) => (node.id === 'question-1' ? { ...node, id: 'node-1' } : node));
  canvas.wires = [];
  mkdirSync(join(home(), 'canvases'), { recursive: true });
  await new CanvasStore({ directory: join(home(), 'canvases') }).write('canvas-1', canvas, { baseRevision: null });
  return inbox.pending;
}

/** The request `weft compile` builds for a fresh question with recall switched on: [Memory] and recall blocks. */
async function compiled(): Promise<{ text: string; memory: { sent: boolean } }> {
  const canvas = new TestCanvas();
  const node = canvas.addQuestion('Which editor and indentation should the project use?');
  canvas.edit(node, { recall: { ...DEFAULT_RECALL_SETTING, enabled: true } });
  const file = join(folder, 'ask.weft.json');
  writeFileSync(file, JSON.stringify(canvas.document()));
  const run = await weft('compile', file, '--node', node, '--json');
  expect(run.code, run.stderr).toBe(0);
  const printed = JSON.parse(run.stdout) as { request: unknown; memory: { sent: boolean } };
  return { text: JSON.stringify(printed.request), memory: printed.memory };
}

describe('weft memory inbox | accept | reject (issue 29.1)', () => {
  it('lists pending proposals newest first; none reaches a compiled request until accepted', async () => {
    const [tabs, neovim] = await twoProposals();
    const listed = await weft('memory', 'inbox');
    expect(listed.code).toBe(0);
    expect(listed.stdout.indexOf(neovim!.id)).toBeLessThan(listed.stdout.indexOf(tabs!.id));
    expect(listed.stdout).toContain(
      'evidence (stated): "I prefer tabs over spaces."  turn: canvas-1/node-1  rule: rule path',
    );
    const json = JSON.parse((await weft('memory', 'inbox', '--json')).stdout) as { total: number };
    expect(json.total).toBe(2);

    // Pending: in neither the [Memory] block nor the recall block of the next request.
    const pending = await compiled();
    expect(pending.memory.sent).toBe(false);
    expect(pending.text).not.toContain('tabs over spaces');
    expect(pending.text).not.toContain('Neovim');

    expect((await weft('memory', 'reject', tabs!.id)).stdout).toContain('will not be proposed again');
    const accepted = await weft('memory', 'accept', neovim!.id, '--text', 'I use Neovim for all editing.');
    expect(accepted.code).toBe(0);
    const after = await compiled();
    expect(after.memory.sent).toBe(true);
    expect(after.text).toContain('I use Neovim for all editing.');
    expect(after.text).not.toContain('tabs over spaces');
    expect((await weft('memory', 'inbox')).stdout).toContain('The Inbox is empty');

    // Every decision is in the journal, which still verifies.
    const journal = await weft('memory', 'journal', '--json', '--limit', '50');
    const ops = (JSON.parse(journal.stdout) as { entries: { event: { op: string } }[] }).entries.map((e) => e.event.op);
    expect(ops.slice(0, 3)).toEqual(['memory-accepted', 'memory-rejected', 'memory-proposed']);
    expect((await weft('memory', 'journal', '--verify')).code).toBe(0);
  });

  it('refuses an unknown id or a missing one, writing nothing', async () => {
    await twoProposals();
    const unknown = await weft('memory', 'accept', 'no-such-proposal');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown-proposal');
    expect((await weft('memory', 'reject')).code).not.toBe(0);
    expect(JSON.parse((await weft('memory', 'inbox', '--json')).stdout)).toMatchObject({ total: 2 });
  });

  it('decides through the running server for this home, so its write queue holds the decision too', async () => {
    const [tabs, neovim] = await twoProposals();
    const server = await startTestServer({ home: home() });
    try {
      const published: string[] = [];
      const stop = server.context.hub.subscribe((event) => published.push(event.type));
      expect((await weft('memory', 'reject', tabs!.id)).code).toBe(0);
      expect((await weft('memory', 'accept', neovim!.id)).stdout).toContain('is in your profile now');
      stop();
      // Only the server publishes: both decisions went through its route, not around it.
      expect(published.filter((type) => type === 'memory-changed')).toHaveLength(2);
      const inbox = await server.api('/api/memory/inbox');
      expect(((await inbox.json()) as { total: number }).total).toBe(0);
      const unknown = await weft('memory', 'accept', 'no-such-proposal');
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('unknown-proposal');
    } finally {
      await server.close();
    }
  });
});
