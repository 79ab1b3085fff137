import { describe, expect, it } from 'vitest';
import { PutAsideKindSchema, type CanvasDocument } from '../../../protocol/index.ts';
import { emptyCanvasDocument } from '../graph.ts';
import { canvasPutAsides } from './canvas-put-asides.ts';
import { contentKey, isPutAside, nodeContent, PUT_ASIDE_KINDS } from './put-aside.ts';

function question(id: string, text: string, origin: 'generated' | 'imported' = 'generated', archived = false) {
  return {
    id,
    createdAt: 0,
    position: { x: 0, y: 0 },
    size: null,
    archived,
    archivedAt: archived ? 1 : null,
    excludedParts: [],
    kind: 'question' as const,
    question: text,
    versions: [
      {
        id: `${id}-v`,
        text: 'an answer',
        question: text,
        model: 'm',
        createdAt: 0,
        requestHash: null,
        upstreamFingerprint: '0'.repeat(64),
        upstream: { base: null, parts: [], removed: [] },
        origin,
        status: 'complete' as const,
        branchOf: null,
      },
    ],
    currentVersionId: `${id}-v`,
    autoRerun: { enabled: false, rounds: 1 },
    model: null,
    attachments: [],
  } as unknown as CanvasDocument['nodes'][number];
}

function canvas(nodes: CanvasDocument['nodes']): CanvasDocument {
  const document = emptyCanvasDocument({ id: 'c', name: 'c', workingDirectory: null, createdAt: 0 });
  return { ...document, nodes };
}

describe('content keys', () => {
  it('are the same for the same words however they are spaced, cased or quoted', () => {
    const key = contentKey('canvas-turn', 'Why does the “cache” miss?');
    expect(contentKey('canvas-turn', '  why DOES the "cache"\n miss? ')).toBe(key);
    expect(key).toMatch(/^canvas-turn:[0-9a-f]{64}$/);
    expect(contentKey('canvas-turn', 'Why does the cache hit?')).not.toBe(key);
  });

  it('keep kinds apart: a canvas turn put aside does not put aside a session turn with the same words', () => {
    const putAsides = new Set([contentKey('canvas-turn', 'Rename the flag')]);
    expect(isPutAside(putAsides, 'canvas-turn', 'rename the  flag')).toBe(true);
    expect(isPutAside(putAsides, 'session-turn', 'Rename the flag')).toBe(false);
    expect(isPutAside(new Set(), 'canvas-turn', 'Rename the flag')).toBe(false);
  });

  it('name the same kinds as the wire contract the Put aside page reads', () => {
    expect(PutAsideKindSchema.options).toEqual([...PUT_ASIDE_KINDS]);
  });

  it('never put aside text that normalises to nothing', () => {
    expect(isPutAside(new Set([contentKey('canvas-turn', '   ')]), 'canvas-turn', '')).toBe(false);
  });
});

describe('a node’s content', () => {
  it('is an imported message when every answer was imported, else a canvas turn', () => {
    expect(nodeContent(question('a', 'Hello', 'imported'))).toEqual({ kind: 'imported-message', text: 'Hello' });
    expect(nodeContent(question('a', 'Hello'))).toEqual({ kind: 'canvas-turn', text: 'Hello' });
  });
});

describe('what a save puts aside', () => {
  it('puts aside a live turn archived or deleted, returns one unarchived, and reports a new node as reappeared', () => {
    const before = canvas([question('a', 'A?'), question('b', 'B?'), question('c', 'C?', 'generated', true)]);
    const after = canvas([question('a', 'A?', 'generated', true), question('c', 'C?'), question('d', 'D?')]);
    const { putAside, returned } = canvasPutAsides(before, after);
    expect(putAside).toEqual([
      { nodeId: 'a', kind: 'canvas-turn', text: 'A?', reason: 'archived' },
      { nodeId: 'b', kind: 'canvas-turn', text: 'B?', reason: 'deleted' },
    ]);
    expect(returned).toEqual([
      { nodeId: 'c', kind: 'canvas-turn', text: 'C?', reason: 'unarchived' },
      { nodeId: 'd', kind: 'canvas-turn', text: 'D?', reason: 'reappeared' },
    ]);
  });

  it('puts aside every live turn of a deleted canvas', () => {
    const { putAside } = canvasPutAsides(canvas([question('a', 'A?')]), null);
    expect(putAside.map((item) => item.reason)).toEqual(['deleted']);
  });
});
