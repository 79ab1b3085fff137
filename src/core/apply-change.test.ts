import { describe, expect, it } from 'vitest';
import { applyChange } from './apply-change.ts';
import type { GraphChange } from './changes.ts';
import { documentFromGraph, emptyGraph, type Graph } from './graph.ts';
import { verifyChain } from './event-log.ts';
import { TestCanvas } from './test-canvas.ts';

const context = { now: 5, newId: () => 'fresh' };

function refusal(graph: Graph, change: GraphChange) {
  const result = applyChange(graph, change, context);
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
}

describe('applyChange', () => {
  it('refuses a wire that would close a cycle, naming the path', () => {
    const canvas = new TestCanvas();
    const a = canvas.addQuestion('a', { id: 'a' });
    const b = canvas.addQuestion('b', { id: 'b' });
    const c = canvas.addQuestion('c', { id: 'c' });
    canvas.wire(a, b);
    canvas.wire(b, c, 'quote');
    const error = refusal(canvas.graph, { type: 'wire', from: c, to: a, kind: 'solid' });
    expect(error.code).toBe('cycle');
    expect(error.details.path).toEqual(['a', 'b', 'c', 'a']);
    expect(error.message).toContain('a → b → c → a');
    expect(refusal(canvas.graph, { type: 'wire', from: a, to: a, kind: 'solid' }).code).toBe('cycle');
  });

  it('refuses unknown nodes, frame wires, duplicate wires and fields a kind does not have', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('q');
    const frame = canvas.addFrame('f');
    const note = canvas.addNote('n');
    canvas.wire(note, question);
    expect(refusal(canvas.graph, { type: 'wire', from: 'nope', to: question, kind: 'solid' }).code).toBe('not-found');
    expect(refusal(canvas.graph, { type: 'wire', from: frame, to: question, kind: 'solid' }).code).toBe('invalid');
    expect(refusal(canvas.graph, { type: 'wire', from: note, to: question, kind: 'dashed', depth: 'quote' }).code).toBe(
      'duplicate',
    );
    expect(refusal(canvas.graph, { type: 'edit-node', nodeId: note, patch: { question: 'x' } }).code).toBe('invalid');
    expect(refusal(canvas.graph, { type: 'add-node', node: { kind: 'note', text: 'x', id: note } }).code).toBe(
      'duplicate',
    );
    expect(refusal(canvas.graph, { type: 'select-version', nodeId: question, versionId: 'v' }).code).toBe('not-found');
    expect(refusal(canvas.graph, { type: 'set-auto-rerun', nodeId: question, enabled: true, rounds: 11 }).code).toBe(
      'invalid',
    );
  });

  it('refuses a change of unknown type', () => {
    const graph = emptyGraph({ id: 'c', name: 'c', workingDirectory: null, createdAt: 0 });
    expect(refusal(graph, { type: 'teleport' } as unknown as GraphChange).code).toBe('invalid');
  });

  it('never mutates the graph it is given, and a failed batch changes nothing', () => {
    const graph = emptyGraph({ id: 'c', name: 'c', workingDirectory: null, createdAt: 0 });
    const before = JSON.stringify(documentFromGraph(graph));
    const error = refusal(graph, {
      type: 'batch',
      changes: [
        { type: 'add-node', node: { kind: 'note', text: 'kept?', id: 'n' } },
        { type: 'wire', from: 'n', to: 'missing', kind: 'solid' },
      ],
    });
    expect(error.code).toBe('not-found');
    expect(JSON.stringify(documentFromGraph(graph))).toBe(before);
  });

  it('writes one hash-chained event per semantic change, with metadata and never text', () => {
    const canvas = new TestCanvas();
    const secret = 'SECRET-TEXT-42';
    const material = canvas.addMaterial('title', `${secret} material`);
    const question = canvas.addQuestion(`${secret} question`);
    canvas.wire(material, question);
    canvas.answer(question, `${secret} answer`);
    canvas.edit(question, { question: `${secret} edited` });
    canvas.exclude(question, `${material}:material`);
    canvas.apply({ type: 'move-node', nodeId: question, position: { x: 9, y: 9 } });
    canvas.archive(question);
    canvas.archive(question); // already archived: no event
    canvas.unarchive(question);
    canvas.apply({ type: 'set-auto-rerun', nodeId: question, enabled: true, rounds: 3 });
    canvas.delete(material);
    expect(canvas.eventOps()).toEqual([
      'import',
      'add',
      'wire',
      'commit',
      'version',
      'edit',
      'exclude',
      'archive',
      'unarchive',
      'auto-rerun',
      'delete',
    ]);
    const events = canvas.graph.events;
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(events.find((event) => event.op === 'edit')!.meta).toEqual({ kind: 'question', fields: 'question' });
    expect(events.find((event) => event.op === 'delete')!.meta).toEqual({ kind: 'material', wires: 1 });
    expect(verifyChain(events)).toBeNull();
  });

  it('adds versions without overwriting, selects one, and keeps failed attempts out of context', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('q');
    const first = canvas.answer(question, 'first');
    const second = canvas.answer(question, 'second');
    const target = canvas.addQuestion('t');
    canvas.wire(question, target);
    expect(canvas.transcript(target)).toContain('second');
    canvas.apply({ type: 'select-version', nodeId: question, versionId: first });
    expect(canvas.transcript(target)).toContain('first');
    const node = canvas.graph.nodes.get(question)!;
    expect(node.kind === 'question' && node.versions.map((version) => version.id)).toEqual([first, second]);
    canvas.apply({
      type: 'add-version',
      nodeId: question,
      version: {
        text: 'partial',
        question: 'q',
        model: 'm',
        requestHash: null,
        upstreamFingerprint: '0'.repeat(64),
        upstream: { base: null, parts: [], removed: [] },
        origin: 'generated',
        status: 'failed',
        branchOf: null,
      },
    });
    expect(canvas.transcript(target)).not.toContain('partial');
  });

  it('changes a wire between solid and dashed, and a dashed depth', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const source = canvas.addQuestion('source');
    canvas.wire(root, source);
    const target = canvas.addQuestion('target');
    const wire = canvas.wire(source, target);
    expect(canvas.compiled(target).sources.map((item) => item.layer)).toEqual(['chain', 'chain', 'question']);
    canvas.apply({ type: 'set-wire-kind', wireId: wire, kind: 'dashed', depth: 'quote' });
    expect(canvas.transcript(target)).toContain('[Reference (quoted answer)]');
    canvas.apply({ type: 'set-wire-kind', wireId: wire, kind: 'dashed', depth: 'full' });
    expect(canvas.transcript(target)).toContain('[Reference (full chain)]');
    expect(canvas.eventOps().filter((op) => op === 'rewire')).toHaveLength(2);
  });

  it('deletes a node with its wires and its verdicts', () => {
    const canvas = new TestCanvas();
    const a = canvas.addQuestion('a');
    const b = canvas.addQuestion('b');
    canvas.wire(a, b);
    canvas.answer(b, 'answer');
    canvas.edit(a, { question: 'changed' });
    canvas.judge(b, 0.1);
    canvas.delete(b);
    expect(canvas.graph.wires.size).toBe(0);
    expect(canvas.graph.outgoing.get(a)).toBeUndefined();
    expect(canvas.graph.dismissals).toEqual([]);
  });

  it('records decision events with light metadata only', () => {
    const canvas = new TestCanvas();
    canvas.apply({ type: 'record', event: { op: 'recall', objectId: 'x', meta: { items: 2 } } });
    expect(canvas.eventOps()).toEqual(['recall']);
    const long = { type: 'record' as const, event: { op: 'recall', objectId: 'x', meta: { text: 'y'.repeat(600) } } };
    expect(canvas.tryApply(long).ok).toBe(false);
  });
});

describe('applyChange keeps the document loadable', () => {
  it('refuses a stale verdict whose probability is outside [0, 1] or not a number', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('q', { id: 'q' });
    const fingerprint = 'f'.repeat(64);
    for (const probability of [Number.NaN, -0.1, 1.5]) {
      const error = refusal(canvas.graph, {
        type: 'set-dismissal',
        nodeId: question,
        fingerprint,
        probability,
        reason: 'r',
      });
      expect(error.code).toBe('invalid');
    }
    const accepted = applyChange(
      canvas.graph,
      { type: 'set-dismissal', nodeId: question, fingerprint, probability: 0.2, reason: 'r' },
      context,
    );
    expect(accepted.ok).toBe(true);
  });

  it('refuses a dashed wire with an unknown depth and an empty wire id', () => {
    const canvas = new TestCanvas();
    const a = canvas.addQuestion('a', { id: 'a' });
    const b = canvas.addQuestion('b', { id: 'b' });
    const badDepth = { type: 'wire', from: a, to: b, kind: 'dashed', depth: 'deep' } as unknown as GraphChange;
    expect(refusal(canvas.graph, badDepth).code).toBe('invalid');
    expect(refusal(canvas.graph, { type: 'wire', id: '', from: a, to: b, kind: 'solid' }).code).toBe('invalid');
    const wireId = canvas.wire(a, b);
    const badKind = { type: 'set-wire-kind', wireId, kind: 'dashed', depth: 'deep' } as unknown as GraphChange;
    expect(refusal(canvas.graph, badKind).code).toBe('invalid');
  });
});

describe('applyChange time', () => {
  it('refuses a fractional or negative clock, which would write events the schema refuses on load', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('q', { id: 'q' });
    for (const now of [1.5, -1, Number.NaN]) {
      const result = applyChange(
        canvas.graph,
        { type: 'edit-node', nodeId: question, patch: { question: 'r' } },
        { now, newId: () => 'x' },
      );
      expect(!result.ok && result.error.code).toBe('invalid');
    }
  });

  it('refuses an id generator that returns an empty id (the event could not be loaded again)', () => {
    const canvas = new TestCanvas();
    const result = applyChange(canvas.graph, { type: 'rename-canvas', name: 'renamed' }, { now: 1, newId: () => '' });
    expect(!result.ok && result.error.code).toBe('invalid');
  });
});

describe('applyChange with text that has no canonical form', () => {
  it('refuses with a coded error, instead of throwing, when an event would carry a lone surrogate', () => {
    const canvas = new TestCanvas();
    const before = canvas.graph;
    const error = refusal(canvas.graph, { type: 'add-node', node: { kind: 'note', text: 'fine', id: 'note-\ud800' } });
    expect(error.code).toBe('invalid');
    expect(error.message).toMatch(/cannot be recorded/);
    const record = refusal(canvas.graph, {
      type: 'record',
      event: { op: 'recall', objectId: 'x', meta: { label: '\udfff' } },
    });
    expect(record.code).toBe('invalid');
    expect(canvas.graph).toBe(before);
    expect(canvas.graph.nodes.size).toBe(0);
  });
});
