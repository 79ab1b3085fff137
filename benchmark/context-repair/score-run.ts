import { answerValue, askedVariable } from '../../src/core/index.ts';
import { CONDITIONS, type Condition } from './conditions.ts';
import { clopperPearson, holm, mcnemarExact, wilson, type Interval } from './statistics.ts';
import { missingRegenerations, tracesByItem, type Trace } from './trace-store.ts';

/** The number a trace answers: its reply's final-answer number (`answer-value.ts`) for the variable it asked. */
export function traceValue(trace: Trace): number | null {
  return answerValue(trace.answer, trace.regenerates ?? askedVariable(trace.request));
}

/** The scoring rules, as data: each outcome is a predicate over one trace. Nothing else decides a score. */
export const OUTCOMES = {
  correct: (trace: Trace) => traceValue(trace) === trace.gold,
  adopted: (trace: Trace) => traceValue(trace) === trace.wrong,
} as const;

/** Each condition is compared, paired by case, against this one (McNemar, Holm across the six). */
export const BASELINE: Condition = 'polluted';

export interface Tally {
  n: number;
  correct: number;
  accuracy: number;
  wilson: Interval;
  exact: Interval;
  adopted: number;
  adoption: number;
  adoptionWilson: Interval;
}

export interface ConditionScore extends Tally {
  condition: Condition;
  missing: number;
  /** Accuracy minus clean accuracy (0 = fully recovered). */
  recoveryVsClean: number;
  byDepth: Record<string, Tally>;
  byFamily: Record<string, Tally>;
}

export interface Comparison {
  condition: Condition;
  pairs: number;
  /** Cases right here and wrong under the baseline, and the reverse. */
  better: number;
  worse: number;
  p: number;
  pHolm: number;
}

/** The Replay steps of `recompute-descendants`, each scored against its own variable's gold and implied wrong value. */
export interface RegenerationScore extends Tally {
  expected: number;
  /** Expected regeneration traces absent from the run (reported, never fatal). */
  missing: string[];
}

/** A final request that is traced but cannot be scored: a regeneration trace its context holds is missing. */
export interface Unscorable {
  item: string;
  missingRegenerations: string[];
}

export interface RunScores {
  model: string;
  scripted: boolean;
  caseSetHash: string;
  expected: number;
  traced: number;
  /** Expected items without a scorable final trace (absent, or built on a missing regeneration trace). */
  missing: string[];
  unscorable: Unscorable[];
  corrupt: string[];
  /** Items with more than one final trace: the earliest scorable one is scored. */
  duplicates: string[];
  regeneration: RegenerationScore;
  conditions: ConditionScore[];
  comparisons: Comparison[];
  /** Per family: conditions whose accuracy beats the baseline in that family (the cluster-level view). */
  familiesImproved: Record<string, number>;
}

function tally(traces: readonly Trace[]): Tally {
  const n = traces.length;
  const correct = traces.filter(OUTCOMES.correct).length;
  const adopted = traces.filter(OUTCOMES.adopted).length;
  return {
    n,
    correct,
    accuracy: n ? correct / n : 0,
    wilson: wilson(correct, n),
    exact: clopperPearson(correct, n),
    adopted,
    adoption: n ? adopted / n : 0,
    adoptionWilson: wilson(adopted, n),
  };
}

function groupBy(traces: readonly Trace[], key: (trace: Trace) => string): Record<string, Tally> {
  const groups = new Map<string, Trace[]>();
  for (const trace of traces) groups.set(key(trace), [...(groups.get(key(trace)) ?? []), trace]);
  return Object.fromEntries(
    [...groups].sort(([left], [right]) => left.localeCompare(right)).map(([name, items]) => [name, tally(items)]),
  );
}

/**
 * Scores a run from its traces alone. `expected` names every item the run should have; a missing trace is
 * listed and counted, never fatal, and the condition's figures are over the traces present. A final request of
 * `recompute-descendants` whose regeneration traces are not all present cannot be scored: it is counted missing,
 * and the absent regeneration traces are listed.
 */
export function scoreRun(
  run: {
    model: string;
    scripted: boolean;
    caseSetHash: string;
    expected: readonly string[];
    /** Every regeneration trace the run should hold (`…/recompute-descendants/regenerate/<name>`). */
    regenerations?: readonly string[];
  },
  traces: readonly Trace[],
  corrupt: readonly string[] = [],
): RunScores {
  const all = tracesByItem(
    traces.filter((trace) => trace.model === run.model && trace.caseSetHash === run.caseSetHash),
  );
  const byItem = new Map<string, Trace>();
  const duplicates: string[] = [];
  const unscorable: Unscorable[] = [];
  for (const key of run.expected) {
    const finals = (all.get(key) ?? []).filter((trace) => trace.step !== 'regenerate');
    if (finals.length > 1) duplicates.push(key);
    // A final request is scored only with every regeneration trace its context holds.
    const scorable = finals.find((trace) => missingRegenerations(trace, all).length === 0);
    if (scorable) byItem.set(key, scorable);
    else if (finals.length > 0)
      unscorable.push({
        item: key,
        missingRegenerations: missingRegenerations(finals[0]!, all).map((ref) => ref.item),
      });
  }
  const expectedRegenerations = run.regenerations ?? [];
  const regenerationTraces = expectedRegenerations
    .map((key) => (all.get(key) ?? []).find((trace) => trace.step === 'regenerate'))
    .filter((trace): trace is Trace => trace !== undefined);
  const regenerationMissing = [
    ...new Set([
      ...expectedRegenerations.filter((key) => !all.get(key)?.some((trace) => trace.step === 'regenerate')),
      ...unscorable.flatMap((entry) => entry.missingRegenerations),
    ]),
  ].sort();
  const missing = run.expected.filter((key) => !byItem.has(key));
  const expectedOf = (condition: Condition) => run.expected.filter((key) => key.endsWith(`/${condition}`));
  const present = (condition: Condition) =>
    expectedOf(condition)
      .map((key) => byItem.get(key))
      .filter((trace): trace is Trace => trace !== undefined);
  const cleanAccuracy = tally(present('clean')).accuracy;
  const conditions: ConditionScore[] = CONDITIONS.map((condition) => {
    const items = present(condition);
    const summary = tally(items);
    return {
      condition,
      ...summary,
      missing: expectedOf(condition).length - items.length,
      recoveryVsClean: summary.accuracy - cleanAccuracy,
      byDepth: groupBy(items, (trace) => String(trace.depth)),
      byFamily: groupBy(items, (trace) => trace.family),
    };
  });
  const baseline = new Map(present(BASELINE).map((trace) => [trace.caseId, OUTCOMES.correct(trace)]));
  const raw = CONDITIONS.filter((condition) => condition !== BASELINE).map((condition) => {
    let better = 0;
    let worse = 0;
    let pairs = 0;
    for (const trace of present(condition)) {
      const other = baseline.get(trace.caseId);
      if (other === undefined) continue;
      pairs += 1;
      const here = OUTCOMES.correct(trace);
      if (here && !other) better += 1;
      if (!here && other) worse += 1;
    }
    return { condition, pairs, better, worse, p: mcnemarExact(better, worse) };
  });
  const adjusted = holm(raw.map((entry) => entry.p));
  const comparisons = raw.map((entry, index) => ({ ...entry, pHolm: adjusted[index]! }));
  const baselineScore = conditions.find((entry) => entry.condition === BASELINE)!;
  const familiesImproved: Record<string, number> = {};
  for (const family of Object.keys(baselineScore.byFamily))
    familiesImproved[family] = conditions.filter(
      (entry) =>
        entry.condition !== BASELINE &&
        (entry.byFamily[family]?.accuracy ?? 0) > baselineScore.byFamily[family]!.accuracy,
    ).length;
  return {
    model: run.model,
    scripted: run.scripted,
    caseSetHash: run.caseSetHash,
    expected: run.expected.length,
    traced: byItem.size,
    missing,
    unscorable,
    corrupt: [...corrupt],
    duplicates,
    regeneration: {
      expected: expectedRegenerations.length,
      missing: regenerationMissing,
      ...tally(regenerationTraces),
    },
    conditions,
    comparisons,
    familiesImproved,
  };
}
