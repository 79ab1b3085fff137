import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../protocol/atlas-session.ts';
import type { MirrorNode } from '../../protocol/canvas-document.ts';
import { compile, planMirror, type Graph } from '../../src/core/index.ts';
import { TestCanvas } from '../../src/core/test-canvas.ts';
import { Fence, readSessionFile } from '../atlas/index.ts';

// planMirror (src/core/mirror) on the real recorded sessions, read through the atlas adapters.
const FIXTURES = fileURLToPath(new URL('../../tests/fixtures/real-sessions/', import.meta.url));
const CLAUDE_SUBAGENT =
  'claude/subagent/projects/-tmp-realsessions-out-claude-subagent-repo/195b5b8f-a852-4bc6-b7e0-b737f1ca64d3';
const CLAUDE_MULTI =
  'claude/multi-turn/projects/-tmp-realsessions-out-claude-multi-turn-repo/4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b.jsonl';
const CODEX_MULTI =
  'codex/multi-turn/sessions/2026/11/29/rollout-2026-11-29T12-05-43-01a22732-657a-7592-b814-5874c3ab6165.jsonl';
const PI_BASIC =
  'pi/basic-tools/sessions/--tmp-realsessions-out-pi-basic-tools-repo--/2026-11-29T12-05-15-761Z_01a22731-f770-772e-87d6-0c5b4c4356ca.jsonl';

const fence = new Fence([FIXTURES]);
async function read(relative: string): Promise<Session[]> {
  return (await readSessionFile(join(FIXTURES, relative), { fence })).sessions;
}

let subagent: Session[];
let claudeMulti: Session[];
let codexMulti: Session[];
let piBasic: Session[];
beforeAll(async () => {
  subagent = [
    ...(await read(`${CLAUDE_SUBAGENT}.jsonl`)),
    ...(await read(`${CLAUDE_SUBAGENT}/subagents/agent-a364d2f0ac3b26c85.jsonl`)),
  ];
  claudeMulti = await read(CLAUDE_MULTI);
  codexMulti = await read(CODEX_MULTI);
  piBasic = await read(PI_BASIC);
});

function mirror(canvas: TestCanvas, sessions: Session[], following?: boolean) {
  const ledger =
    canvas.graph.ledgers.find(
      (item) => item.sessionId === sessions.find((session) => !session.isSubagent)!.sessionId,
    ) ?? null;
  const context = canvas.context();
  const plan = planMirror(canvas.graph, sessions, ledger, {
    ...context,
    origin: { x: 100, y: 50 },
    ...(following !== undefined ? { following } : {}),
  });
  if (plan.changes.length > 0) canvas.apply({ type: 'batch', changes: plan.changes });
  return plan;
}

const mirrors = (graph: Graph) =>
  [...graph.nodes.values()].filter((node): node is MirrorNode => node.kind === 'mirror');
const positions = (graph: Graph) => new Map([...graph.nodes.values()].map((node) => [node.id, { ...node.position }]));

describe('planMirror on real sessions', () => {
  it('puts one mirror node per user turn, solid-wired in order, with question and answer from the session', () => {
    for (const sessions of [claudeMulti, codexMulti]) {
      const canvas = new TestCanvas();
      const plan = mirror(canvas, sessions);
      const turns = sessions[0]!.turns;
      const nodes = turns.map((turn) => canvas.graph.nodes.get(plan.nodeIdByTurnKey[turn.key]!) as MirrorNode);
      expect(nodes.map((node) => node.question)).toEqual(turns.map((turn) => turn.userText));
      expect(nodes.map((node) => node.answer)).toEqual(turns.map((turn) => turn.assistantText));
      expect(nodes[0]!.position.x).toBe(nodes[1]!.position.x);
      expect(nodes[1]!.position.y).toBeGreaterThan(nodes[0]!.position.y);
      const wires = [...canvas.graph.wires.values()];
      expect(wires).toHaveLength(1);
      expect(wires[0]).toMatchObject({ from: nodes[0]!.id, to: nodes[1]!.id, kind: 'solid' });
      expect(nodes.every((node) => !node.includeExecution)).toBe(true);
      expect(plan.ledger.turnKeys).toEqual(turns.map((turn) => turn.key));
      expect(
        canvas.graph.events.some((event) => event.op === 'mirror' && event.objectId === sessions[0]!.sessionId),
      ).toBe(true);
    }
  });

  it('is idempotent: mirroring again adds nothing and moves nothing', () => {
    const canvas = new TestCanvas();
    mirror(canvas, codexMulti);
    const before = positions(canvas.graph);
    const nodeCount = canvas.graph.nodes.size;
    const again = mirror(canvas, codexMulti);
    expect(again.changes).toEqual([]);
    expect(canvas.graph.nodes.size).toBe(nodeCount);
    expect(positions(canvas.graph)).toEqual(before);
  });

  it('appends only turns past the ledger, below the column, without moving the nodes the person placed', () => {
    const canvas = new TestCanvas();
    const firstOnly: Session[] = [{ ...claudeMulti[0]!, turns: claudeMulti[0]!.turns.slice(0, 1) }];
    const first = mirror(canvas, firstOnly);
    const firstId = first.nodeIdByTurnKey[claudeMulti[0]!.turns[0]!.key]!;
    canvas.apply({ type: 'move-node', nodeId: firstId, position: { x: 900, y: 700 } });
    const before = positions(canvas.graph);
    const second = mirror(canvas, claudeMulti);
    expect(second.counts.turns).toBe(1);
    expect(mirrors(canvas.graph)).toHaveLength(2);
    for (const [id, position] of before) expect(canvas.graph.nodes.get(id)!.position).toEqual(position);
    const secondId = second.nodeIdByTurnKey[claudeMulti[0]!.turns[1]!.key]!;
    expect(canvas.graph.nodes.get(secondId)!.position.y).toBeGreaterThan(700);
    expect([...canvas.graph.wires.values()]).toEqual([expect.objectContaining({ from: firstId, to: secondId })]);
  });

  it('never overwrites a node the person edited, and never re-adds a turn they deleted', () => {
    const canvas = new TestCanvas();
    const partial: Session[] = [
      { ...piBasic[0]!, turns: piBasic[0]!.turns.map((turn) => ({ ...turn, assistantText: '' })) },
    ];
    const first = mirror(canvas, partial);
    const id = first.nodeIdByTurnKey[piBasic[0]!.turns[0]!.key]!;
    canvas.edit(id, { question: 'My own wording' });
    mirror(canvas, piBasic);
    const node = canvas.graph.nodes.get(id) as MirrorNode;
    expect(node.question).toBe('My own wording');
    expect(node.answer).toBe('');
    expect(mirrors(canvas.graph)).toHaveLength(1);

    canvas.delete(id);
    const again = mirror(canvas, piBasic);
    expect(again.changes).toEqual([]);
    expect(mirrors(canvas.graph)).toHaveLength(0);
  });

  it('refreshes an unedited node in place when its (live) turn grew, keeping id, position and wires', () => {
    const canvas = new TestCanvas();
    const turns = claudeMulti[0]!.turns;
    const partial: Session[] = [
      { ...claudeMulti[0]!, turns: [turns[0]!, { ...turns[1]!, assistantText: '', steps: [] }] },
    ];
    const first = mirror(canvas, partial);
    const lastId = first.nodeIdByTurnKey[turns[1]!.key]!;
    const downstream = canvas.addQuestion('And then?');
    canvas.wire(lastId, downstream);
    canvas.apply({ type: 'move-node', nodeId: lastId, position: { x: 5, y: 6 } });
    const plan = mirror(canvas, claudeMulti);
    expect(plan.counts).toMatchObject({ turns: 0, refreshed: 1 });
    const node = canvas.graph.nodes.get(lastId) as MirrorNode;
    expect(node.answer).toBe(turns[1]!.assistantText);
    expect(node.source.steps.length).toBe(turns[1]!.steps.length);
    expect(node.position).toEqual({ x: 5, y: 6 });
    expect([...canvas.graph.wires.values()].map((wire) => `${wire.from}->${wire.to}`).sort()).toEqual(
      [`${first.nodeIdByTurnKey[turns[0]!.key]}->${lastId}`, `${lastId}->${downstream}`].sort(),
    );
  });

  it('leaves a node the person archived archived when its (live) turn grows', () => {
    const canvas = new TestCanvas();
    const turns = claudeMulti[0]!.turns;
    const partial: Session[] = [
      { ...claudeMulti[0]!, turns: [turns[0]!, { ...turns[1]!, assistantText: '', steps: [] }] },
    ];
    const lastId = mirror(canvas, partial).nodeIdByTurnKey[turns[1]!.key]!;
    canvas.archive(lastId);
    const archivedAt = canvas.graph.nodes.get(lastId)!.archivedAt;
    mirror(canvas, claudeMulti);
    const node = canvas.graph.nodes.get(lastId) as MirrorNode;
    expect(node.archived).toBe(true);
    expect(node.archivedAt).toBe(archivedAt);
  });

  it('lands a subagent run as a wired branch beside the turn that delegated it', () => {
    const canvas = new TestCanvas();
    const plan = mirror(canvas, subagent);
    const parentTurn = subagent[0]!.turns[0]!;
    const child = subagent[1]!;
    expect(child.isSubagent).toBe(true);
    const parentId = plan.nodeIdByTurnKey[parentTurn.key]!;
    const childId = plan.nodeIdByTurnKey[child.turns[0]!.key]!;
    const parent = canvas.graph.nodes.get(parentId)!;
    const branch = canvas.graph.nodes.get(childId) as MirrorNode;
    expect(branch.source.delegatedBy).toBe(parentTurn.key);
    expect(branch.position.x).toBeGreaterThan(parent.position.x);
    expect(branch.position.y).toBe(parent.position.y);
    expect([...canvas.graph.wires.values()]).toEqual([
      expect.objectContaining({ from: parentId, to: childId, kind: 'solid' }),
    ]);
    expect(plan.counts).toMatchObject({ turns: 1, subagentTurns: 1 });
    expect(mirror(canvas, subagent).changes).toEqual([]);
  });

  it('turns compaction boundaries into notes, once', () => {
    const canvas = new TestCanvas();
    const base = claudeMulti[0]!;
    const compacted: Session = {
      ...base,
      turns: base.turns.map((turn, index) => ({ ...turn, afterCompaction: index === 1 })),
      compactions: [{ beforeTurnNumber: 2, at: null, summary: 'Earlier: a TODO.md with two items was written.' }],
    };
    const plan = mirror(canvas, [compacted]);
    expect(plan.counts.notes).toBe(1);
    const notes = [...canvas.graph.nodes.values()].filter((node) => node.kind === 'note');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.kind === 'note' && notes[0]!.text).toContain('Earlier: a TODO.md with two items was written.');
    // C14: Weft wrote this note (from the agent's summary); memory never takes it as the person's words.
    expect(notes[0]!.kind === 'note' && notes[0]!.author).toBe('app');
    const [first, second] = base.turns.map((turn) => canvas.graph.nodes.get(plan.nodeIdByTurnKey[turn.key]!)!);
    expect(notes[0]!.position.y).toBeGreaterThan(first!.position.y);
    expect(notes[0]!.position.y).toBeLessThan(second!.position.y);
    expect(mirror(canvas, [compacted]).changes).toEqual([]);
  });

  it('compiles a question downstream of a mirrored turn with the one-line execution record, or the whole record when included', () => {
    const canvas = new TestCanvas();
    const plan = mirror(canvas, claudeMulti);
    const lastId = plan.nodeIdByTurnKey[claudeMulti[0]!.turns[1]!.key]!;
    const question = canvas.addQuestion('What is left to do?');
    canvas.wire(lastId, question);
    const text = (graph: Graph) =>
      compile(graph, question)
        .messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')))
        .join('\n');
    const compiled = text(canvas.graph);
    expect(compiled).toContain(claudeMulti[0]!.turns[0]!.userText);
    expect(compiled).toContain(claudeMulti[0]!.turns[1]!.assistantText);
    expect(compiled).toMatch(
      /\[Execution: \d+ tool steps? touched \/tmp\/realsessions\/out\/claude\/multi-turn\/repo\/TODO\.md; their contents were left out of this context\]/,
    );
    canvas.edit(lastId, { includeExecution: true });
    expect(text(canvas.graph)).toContain('[Execution record:');
  });

  it('is deterministic: the same inputs give the same changes', () => {
    const plan = () => {
      let counter = 0;
      const canvas = new TestCanvas();
      return planMirror(canvas.graph, subagent, null, { now: 1, newId: () => `id${++counter}`, origin: { x: 0, y: 0 } })
        .changes;
    };
    expect(plan()).toEqual(plan());
  });

  it('keeps the following flag in the ledger', () => {
    const canvas = new TestCanvas();
    expect(mirror(canvas, codexMulti, true).ledger.following).toBe(true);
    expect(mirror(canvas, codexMulti).ledger.following).toBe(true);
    const stop = mirror(canvas, codexMulti, false);
    expect(stop.changes).toEqual([{ type: 'set-ledger', ledger: expect.objectContaining({ following: false }) }]);
    expect(canvas.graph.ledgers.find((ledger) => ledger.sessionId === codexMulti[0]!.sessionId)?.following).toBe(false);
  });
});
