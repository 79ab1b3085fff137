import { describe, expect, it } from 'vitest';
import { applyChange } from './apply-change.ts';
import type { GraphChange } from './changes.ts';
import { verifyChain } from './event-log.ts';
import { emptyGraph, type Graph } from './graph.ts';
import { narrowStep, rebaseSteps, type LocalStep } from './rebase-steps.ts';
import { documentFromGraph } from './graph.ts';

const meta = { id: 'c', name: 'Canvas', workingDirectory: null, createdAt: 0 };

function ids(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

/** Applies a change as the store does, keeping the ids it drew. */
function step(graph: Graph, change: GraphChange, now: number, newId: () => string): [Graph, LocalStep] {
  const drawn: string[] = [];
  const result = applyChange(graph, change, { now, newId: () => (drawn.push(newId()), drawn.at(-1)!) });
  if (!result.ok) throw new Error(result.error.message);
  return [result.value.graph, { kind: 'change', change, now, ids: drawn }];
}

describe('rebaseSteps', () => {
  it('replays local typed changes onto a newer record with the same ids, one unbroken chain', () => {
    const base = emptyGraph(meta);
    const [remote] = step(base, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 10, ids('remote'));
    const local = ids('local');
    const [afterAdd, add] = step(base, { type: 'add-node', node: { kind: 'note', text: 'mine' } }, 11, local);
    const mine = [...afterAdd.nodes.keys()][0]!;
    const [, edit] = step(afterAdd, { type: 'edit-node', nodeId: mine, patch: { text: 'mine, edited' } }, 12, local);
    const { graph, dropped } = rebaseSteps(remote, [add, edit], ids('fresh'));
    expect(dropped).toEqual([]);
    expect([...graph.nodes.values()].map((node) => (node.kind === 'note' ? node.text : ''))).toEqual([
      'theirs',
      'mine, edited',
    ]);
    expect(graph.nodes.has(mine)).toBe(true);
    expect(graph.events.slice(0, remote.events.length)).toEqual(remote.events);
    expect(verifyChain(graph.events)).toBeNull();
  });

  it('drops, with the reason, a step whose node the newer record deleted, and keeps the rest', () => {
    const base = emptyGraph(meta);
    const shared = ids('shared');
    const [withNote] = step(base, { type: 'add-node', node: { kind: 'note', text: 'shared' } }, 1, shared);
    const noteId = [...withNote.nodes.keys()][0]!;
    const [remote] = step(withNote, { type: 'delete-node', nodeId: noteId }, 2, ids('remote'));
    const local = ids('local');
    const [edited, edit] = step(withNote, { type: 'edit-node', nodeId: noteId, patch: { text: 'late' } }, 3, local);
    const [, add] = step(edited, { type: 'add-node', node: { kind: 'note', text: 'kept' } }, 4, local);
    const { graph, dropped } = rebaseSteps(remote, [edit, add], ids('fresh'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.reason.length).toBeGreaterThan(5);
    expect([...graph.nodes.values()].map((node) => (node.kind === 'note' ? node.text : ''))).toEqual(['kept']);
    expect(verifyChain(graph.events)).toBeNull();
  });

  it('replays a snapshot step (an undo, an event appended outside applyChange) by the records it changed', () => {
    const base = emptyGraph(meta);
    const [remote] = step(base, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 10, ids('remote'));
    const [after] = step(base, { type: 'add-node', node: { kind: 'note', text: 'mine' } }, 11, ids('local'));
    const { graph } = rebaseSteps(remote, [{ kind: 'snapshot', before: base, after }], ids('fresh'));
    expect(graph.nodes.size).toBe(2);
    expect(graph.events.map((event) => event.id)).toEqual([...remote.events, ...after.events].map((event) => event.id));
    expect(verifyChain(graph.events)).toBeNull();
  });

  it('does not apply twice a step the newer record already holds (a save sent as the page closed landed)', () => {
    const base = emptyGraph(meta);
    const local = ids('local');
    const [afterAdd, add] = step(base, { type: 'add-node', node: { kind: 'note', text: 'mine' } }, 1, local);
    const mine = [...afterAdd.nodes.keys()][0]!;
    const [landed, edit] = step(
      afterAdd,
      { type: 'edit-node', nodeId: mine, patch: { text: 'mine, edited' } },
      2,
      local,
    );
    // Someone saved on top of the landed (unacknowledged) save; the page replays its whole queue at its next visit.
    const [remote] = step(landed, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 3, ids('remote'));
    const undone: LocalStep = { kind: 'snapshot', before: landed, after: { ...afterAdd, events: landed.events } };
    const { graph, dropped, alreadyHeld } = rebaseSteps(remote, [add, edit], ids('fresh'));
    expect(dropped).toEqual([]);
    expect(alreadyHeld).toBe(2);
    expect(documentFromGraph(graph)).toEqual(documentFromGraph(remote));
    const replayedUndo = rebaseSteps(remote, [add, edit, narrowStep(undone)], ids('fresh'));
    expect(replayedUndo.graph.events).toEqual(remote.events);
    expect(verifyChain(replayedUndo.graph.events)).toBeNull();
  });

  it('replays a narrowed snapshot exactly as the whole one, holding only what it changed', () => {
    const base = emptyGraph(meta);
    const shared = ids('shared');
    let graph = base;
    for (const text of ['a', 'b', 'c'])
      [graph] = step(graph, { type: 'add-node', node: { kind: 'note', text } }, 1, shared);
    const [first, second] = [...graph.nodes.keys()];
    const [edited] = step(graph, { type: 'edit-node', nodeId: first!, patch: { text: 'a2' } }, 2, ids('local'));
    const [after] = step(edited, { type: 'delete-node', nodeId: second! }, 3, ids('local2'));
    const snapshot: LocalStep = { kind: 'snapshot', before: graph, after };
    const narrow = narrowStep(snapshot);
    if (narrow.kind !== 'snapshot') throw new Error('a snapshot stays a snapshot');
    expect(narrow.after.nodes.size + narrow.before.nodes.size).toBe(3);
    const [remote] = step(graph, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 4, ids('remote'));
    const whole = rebaseSteps(remote, [snapshot], ids('fresh'));
    const narrowed = rebaseSteps(remote, [structuredClone(narrow)], ids('fresh'));
    expect(documentFromGraph(narrowed.graph)).toEqual(documentFromGraph(whole.graph));
    expect(verifyChain(narrowed.graph.events)).toBeNull();
  });

  it('takes back all of a refused batch (the replay changes its scratch copy in place), never the record it was given', () => {
    const base = emptyGraph(meta);
    const [remote] = step(base, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 1, ids('remote'));
    const before = documentFromGraph(remote);
    const local = ids('local');
    const refused: LocalStep = {
      kind: 'change',
      change: {
        type: 'batch',
        changes: [
          { type: 'add-node', node: { kind: 'note', text: 'half' } },
          { type: 'edit-node', nodeId: 'gone', patch: { text: 'x' } },
        ],
      },
      now: 2,
      ids: [local(), local()],
    };
    const [, kept] = step(remote, { type: 'add-node', node: { kind: 'note', text: 'kept' } }, 3, local);
    const { graph, dropped } = rebaseSteps(remote, [refused, kept], ids('fresh'));
    expect(dropped.map((entry) => entry.step)).toEqual([refused]);
    expect([...graph.nodes.values()].map((node) => (node.kind === 'note' ? node.text : ''))).toEqual([
      'theirs',
      'kept',
    ]);
    expect(graph.events).toHaveLength(remote.events.length + 1);
    expect(verifyChain(graph.events)).toBeNull();
    expect(documentFromGraph(remote)).toEqual(before);
  });

  describe('an undo replayed onto a newer record (a snapshot step, compared record by record with what it replaced)', () => {
    /** A note edited then undone, as the store journals it: the undo is a snapshot keeping the current log. */
    function editedThenUndone() {
      const [base] = step(emptyGraph(meta), { type: 'add-node', node: { kind: 'note', text: 'x' } }, 1, ids('base'));
      const noteId = [...base.nodes.keys()][0]!;
      const [edited, edit] = step(base, { type: 'edit-node', nodeId: noteId, patch: { text: 'mine' } }, 2, ids('a'));
      const undo: LocalStep = { kind: 'snapshot', before: edited, after: { ...base, events: edited.events } };
      // Stored as the pending queue stores it: narrowed, then cloned (object identity is gone).
      return { base, noteId, edited, edit, undo: structuredClone(narrowStep(undo)) };
    }
    const text = (graph: Graph, nodeId: string) => {
      const node = graph.nodes.get(nodeId);
      return node?.kind === 'note' ? node.text : undefined;
    };

    it('refuses, and reports, an undo whose card another writer changed since: their text stays', () => {
      const { base, noteId, edited, edit, undo } = editedThenUndone();
      // The edit and its undo landed unacknowledged; another tab then edited the card.
      const landed: Graph = { ...base, events: edited.events };
      const [theirs] = step(landed, { type: 'edit-node', nodeId: noteId, patch: { text: 'theirs' } }, 3, ids('b'));
      const { graph, dropped, alreadyHeld } = rebaseSteps(theirs, [edit, undo], ids('fresh'));
      expect(alreadyHeld).toBe(1);
      expect(dropped.map((entry) => entry.step)).toEqual([undo]);
      expect(dropped[0]!.reason).toMatch(/card .* changed elsewhere/);
      expect(text(graph, noteId)).toBe('theirs');
      expect(documentFromGraph(graph)).toEqual(documentFromGraph(theirs));
    });

    it('leaves alone an undo the newer record already holds: nothing changes, nothing reported', () => {
      const { base, noteId, edited, edit, undo } = editedThenUndone();
      const landed: Graph = { ...base, events: edited.events };
      const [remote] = step(landed, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 3, ids('b'));
      const { graph, dropped } = rebaseSteps(remote, [edit, undo], ids('fresh'));
      expect(dropped).toEqual([]);
      expect(text(graph, noteId)).toBe('x');
      expect(documentFromGraph(graph)).toEqual(documentFromGraph(remote));
    });

    it('still applies an undo onto a record that holds what it replaced, next to the other writer’s card', () => {
      const { noteId, edited, edit, undo } = editedThenUndone();
      // The edit landed; the undo did not; another tab added a card.
      const [remote] = step(edited, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 3, ids('b'));
      const { graph, dropped } = rebaseSteps(remote, [edit, undo], ids('fresh'));
      expect(dropped).toEqual([]);
      expect(text(graph, noteId)).toBe('x');
      expect([...graph.nodes.values()].map((node) => (node.kind === 'note' ? node.text : ''))).toEqual(['x', 'theirs']);
      expect(graph.events).toEqual(remote.events);
      expect(verifyChain(graph.events)).toBeNull();
    });

    it('refuses an undo replayed after its own edit over another writer’s edit of the card (neither had landed)', () => {
      const { base, noteId, edit, undo } = editedThenUndone();
      // The edit wrote over their text first; the undo then matches its own `before`, but would put back the old text.
      const [theirs] = step(base, { type: 'edit-node', nodeId: noteId, patch: { text: 'theirs' } }, 3, ids('b'));
      const { graph, dropped } = rebaseSteps(theirs, [edit, undo], ids('fresh'));
      expect(dropped.map((entry) => entry.step)).toEqual([undo]);
      expect(text(graph, noteId)).toBe('mine');
    });

    it('applies an edit and its undo, neither landed, when no one else touched the card, nor a card it added', () => {
      const { base, noteId, edit, undo } = editedThenUndone();
      const local = ids('local');
      const [added, add] = step(base, { type: 'add-node', node: { kind: 'note', text: 'new' } }, 3, local);
      const newId = [...added.nodes.keys()].find((key) => key !== noteId)!;
      const [typed, type] = step(added, { type: 'edit-node', nodeId: newId, patch: { text: 'new, typed' } }, 4, local);
      const untype = narrowStep({ kind: 'snapshot', before: typed, after: { ...added, events: typed.events } });
      const [remote] = step(base, { type: 'add-node', node: { kind: 'note', text: 'theirs' } }, 5, ids('b'));
      const { graph, dropped } = rebaseSteps(remote, [edit, undo, add, type, structuredClone(untype)], ids('fresh'));
      expect(dropped).toEqual([]);
      expect(text(graph, noteId)).toBe('x');
      expect(text(graph, newId)).toBe('new');
      expect(verifyChain(graph.events)).toBeNull();
    });

    it('refuses an undo of an added card (a deletion) when another writer has since edited that card', () => {
      const [added, add] = step(
        emptyGraph(meta),
        { type: 'add-node', node: { kind: 'note', text: 'new' } },
        1,
        ids('a'),
      );
      const noteId = [...added.nodes.keys()][0]!;
      const undo = narrowStep({
        kind: 'snapshot',
        before: added,
        after: { ...emptyGraph(meta), events: added.events },
      });
      const [theirs] = step(added, { type: 'edit-node', nodeId: noteId, patch: { text: 'answered' } }, 2, ids('b'));
      const { graph, dropped } = rebaseSteps(theirs, [add, structuredClone(undo)], ids('fresh'));
      expect(dropped).toHaveLength(1);
      expect(text(graph, noteId)).toBe('answered');
    });
  });
});
