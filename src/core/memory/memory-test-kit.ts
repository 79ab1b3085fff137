import type { Exchange, OtherText } from './exchange.ts';
import type { CandidateFact } from './candidate-fact.ts';
import type { MemoryProfile } from '../../../protocol/index.ts';
import { admitFact } from './admit-fact.ts';
import { mergeFact } from './merge-fact.ts';
import { emptyProfile, type MemoryContext } from './profile.ts';

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

/** One statement of a fact in the person's own words (`said`), at `at`. */
export interface TimedStatement {
  said: string;
  /** The fact's line; absent: the words as said. */
  text?: string;
  at: number;
  /** The id its line gets. */
  id: string;
}

/**
 * #29.4: the person states facts one after another (each in its own exchange at its time), every one superseding the
 * line before it (the judge-less merge replacing the line it `updates`), each recorded `recordedAfter` ms after it was
 * said (a proposal waiting in the Inbox). Returns the profile and the lines' ids, in order.
 */
export function supersedingStatements(
  statements: readonly TimedStatement[],
  category: CandidateFact['category'],
  recordedAfter = 0,
  start: MemoryProfile = emptyProfile(),
): { profile: MemoryProfile; lineIds: string[] } {
  let profile = start;
  const lineIds: string[] = [];
  for (const statement of statements) {
    const exchange = testExchange(statement.said);
    exchange.origin = { ...exchange.origin, at: statement.at };
    const candidate = testCandidate(statement.text ?? statement.said, statement.said, {
      category,
      updates: lineIds.at(-1) ?? null,
    });
    const verdict = admitFact(candidate, exchange, profile, 0);
    if (!verdict.admitted) throw new Error(verdict.reason);
    const merged = mergeFact(profile, verdict.fact, null, {
      now: statement.at + recordedAfter,
      newId: () => statement.id,
    });
    if (!merged.ok) throw new Error(merged.error);
    if (merged.value.lineId === null) throw new Error(`"${statement.said}" wrote no line`);
    profile = merged.value.profile;
    lineIds.push(merged.value.lineId);
  }
  return { profile, lineIds };
}
