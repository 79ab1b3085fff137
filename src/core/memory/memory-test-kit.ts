import type { Exchange, OtherText } from './exchange.ts';
import type { CandidateFact } from './candidate-fact.ts';
import type { MemoryContext } from './profile.ts';

/** Test helpers (used by the memory tests only): an exchange, a candidate and a ticking context. */
export function testExchange(
  question: string,
  other: Partial<Record<OtherText['kind'], string>> = {},
  note?: string,
): Exchange {
  return {
    origin: { canvasId: 'canvas-1', nodeId: 'node-1', versionId: 'version-1', commitHash: 'a'.repeat(64), at: 1_000 },
    person: [
      { kind: 'question', text: question, nodeId: 'node-1' },
      ...(note === undefined ? [] : [{ kind: 'note' as const, text: note, nodeId: 'note-1' }]),
    ],
    other: Object.entries(other).map(([kind, text]) => ({ kind: kind as OtherText['kind'], text: text })),
  };
}

export function testCandidate(text: string, span: string, overrides: Partial<CandidateFact> = {}): CandidateFact {
  return { text, category: 'preference', span, stated: true, updates: null, path: 'judge', ...overrides };
}

/** Ids `<prefix>-1`, `<prefix>-2`, … and a clock the test moves by hand. */
export function testContext(start = 10_000, prefix = 'line'): MemoryContext & { tick: (ms?: number) => void } {
  let next = 0;
  const context = {
    now: start,
    newId: () => `${prefix}-${++next}`,
    tick: (ms = 1_000) => {
      context.now += ms;
    },
  };
  return context;
}
