import { describe, expect, it } from 'vitest';
import type { Plaque } from '../../../protocol/index.ts';
import { TestCanvas } from '../test-canvas.ts';
import { plaqueThread } from './plaque-thread.ts';

function plaqueFor(topic: string): Plaque {
  return {
    topic,
    takeaway: `${topic} matters here`,
    reason: '',
    sentences: [],
    abstract: [],
    source: 'rule',
    model: null,
    writtenAt: 1,
  };
}

/** a → b → c → d, each answered with a plaque named after it. */
function chain() {
  const canvas = new TestCanvas();
  const ids = ['a', 'b', 'c', 'd'];
  let previous: string | null = null;
  for (const id of ids) {
    canvas.addQuestion(`${id}?`, { id });
    if (previous) canvas.wire(previous, id);
    const versionId = canvas.answer(id, `Answer ${id}.`);
    canvas.apply({ type: 'set-plaque', nodeId: id, versionId, plaque: plaqueFor(`Topic ${id}`) });
    previous = id;
  }
  return canvas;
}

describe('plaqueThread (C32: what a plaque writer is shown)', () => {
  it('is the ancestors’ own plaques, oldest first, not the node’s own', () => {
    expect(plaqueThread(chain().graph, 'd')).toEqual([
      'Topic a: Topic a matters here',
      'Topic b: Topic b matters here',
      'Topic c: Topic c matters here',
    ]);
  });

  it('skips an archived step but keeps what lies behind it', () => {
    const canvas = chain();
    canvas.archive('c');
    expect(plaqueThread(canvas.graph, 'd')).toEqual(['Topic a: Topic a matters here', 'Topic b: Topic b matters here']);
  });

  it('keeps the nearest ancestors within the token budget', () => {
    // Each line is 29 characters: 8 tokens at four characters a token; 20 tokens hold two lines.
    expect(plaqueThread(chain().graph, 'd', { budget: 20 })).toEqual([
      'Topic b: Topic b matters here',
      'Topic c: Topic c matters here',
    ]);
    expect(plaqueThread(chain().graph, 'd', { budget: 5 })).toEqual([]);
  });

  it('is empty for a root question', () => {
    expect(plaqueThread(chain().graph, 'a')).toEqual([]);
  });
});
