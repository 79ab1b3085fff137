import type { RecallCandidate } from './recall-inputs.ts';

/** The project the recall tests' past sessions ran in. */
export const TEST_PROJECT = '/home/ada/bees';
/** When the recall tests' past turns were asked, unless a test says otherwise. */
export const TEST_T0 = Date.UTC(2026, 10, 1);

/** Test support: a past Claude Code session turn about the varroa count, in `TEST_PROJECT`, as recall reads it. */
export function testTurn(key: string, overrides: Partial<RecallCandidate> = {}): RecallCandidate {
  return {
    key,
    kind: 'turn',
    runner: 'claude-code',
    sessionId: `session-${key}`,
    sessionTitle: `Session ${key}`,
    turn: 1,
    cwd: TEST_PROJECT,
    at: TEST_T0,
    question: `How should the varroa count be stored? (${key})`,
    answer: `Store the varroa count per hive in SQLite (${key}).`,
    canvasId: null,
    mirrors: null,
    ...overrides,
  };
}
