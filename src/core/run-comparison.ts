import type { Version } from '../../protocol/index.ts';
import { answerValue } from './answer-value.ts';
import type { Graph } from './graph.ts';
import { dependencyOrder } from './rerun-wave.ts';
import { runVersion, selectedVersion } from './run-view.ts';
import { versionCheckResults } from './version-checks.ts';

/** One check's result on one answer, as the checks report it (only which check and whether it passed matter here). */
export interface CheckVerdict {
  checkId: string;
  passed: boolean;
}

/**
 * The checks' results on a version of `nodeId`, or null when the question carries no checks (or they have not run).
 * The checks' own reader (the version's check events) adapts to this: a pending result is left out.
 */
export type ChecksOf = (nodeId: string, version: Version) => readonly CheckVerdict[] | null;

/** The number an answer gives as its final answer (the benchmark's `answerValue`), or null when it gives none. */
export type NumberOf = (text: string) => number | null;

/** One answer's side of a row. */
export interface ComparedAnswer {
  versionId: string;
  model: string;
  number: number | null;
  checks: readonly CheckVerdict[] | null;
}

export interface RunComparisonRow {
  nodeId: string;
  question: string;
  /** The person's selected answer; null when the question has none. */
  original: ComparedAnswer | null;
  /** The run's answer; null when the run never reached the question (stopped, failed). */
  rerun: ComparedAnswer | null;
  /** Whether any check passed on one side and not the other; null when either side has no checks to compare. */
  checksChanged: boolean | null;
  /** Whether the extracted number differs; null when neither answer gives one (or a side is missing). */
  numberChanged: boolean | null;
  /** The run changed a conclusion here: a check's verdict or the number. */
  diverged: boolean;
}

export interface RunComparison {
  runName: string;
  /** The model the run was made under (from its first version); null when the canvas holds no such run. */
  model: string | null;
  /** Every question the run answered, upstream first. */
  rows: RunComparisonRow[];
  /** The first question, in dependency order, where the two runs diverge; null when they agree everywhere compared. */
  firstDivergence: string | null;
  diverged: number;
}

export interface RunComparisonOptions {
  checksOf?: ChecksOf;
  numberOf?: NumberOf;
}

/**
 * Issue 31: the Run comparison — per question the run answered, the person's selected answer against the run's,
 * whether the checks' verdicts and the extracted number changed, and the first question (upstream first) where they
 * diverge. Without checks or a number to compare, a row never counts as diverged: differently worded answers are
 * expected of another model, a changed conclusion is what the comparison looks for.
 */
export function runComparison(graph: Graph, runName: string, given: RunComparisonOptions = {}): RunComparison {
  const options = { checksOf: given.checksOf ?? recordedChecks(graph), numberOf: given.numberOf };
  const reached = new Set<string>();
  let model: string | null = null;
  for (const [id, node] of graph.nodes) {
    const version = runVersion(node, runName);
    if (!version) continue;
    reached.add(id);
    model ??= version.run!.model;
  }
  const rows = dependencyOrder(graph, reached).map((nodeId) => {
    const node = graph.nodes.get(nodeId);
    return compareRow(
      nodeId,
      node?.kind === 'question' ? node.question : '',
      selectedVersion(node),
      runVersion(node, runName),
      // The extracted number is compared where the question sets a number check (issue 31: "where set").
      {
        ...options,
        numberOf:
          options.numberOf ??
          (node?.kind === 'question' && node.checks?.some((check) => check.kind === 'number')
            ? (text: string) => answerValue(text)
            : undefined),
      },
    );
  });
  const first = rows.find((row) => row.diverged);
  return {
    runName,
    model,
    rows,
    firstDivergence: first?.nodeId ?? null,
    diverged: rows.filter((row) => row.diverged).length,
  };
}

/** The verdicts the canvas recorded for a version (its check events); a pending result is left out, none is null. */
function recordedChecks(graph: Graph): ChecksOf {
  return (nodeId, version) => {
    const results = versionCheckResults(graph, nodeId, version.id).filter((result) => result.outcome !== 'pending');
    return results.length > 0
      ? results.map((result) => ({ checkId: result.check.id, passed: result.outcome === 'pass' }))
      : null;
  };
}

function compareRow(
  nodeId: string,
  question: string,
  originalVersion: Version | null,
  rerunVersion: Version | null,
  options: RunComparisonOptions,
): RunComparisonRow {
  const original = originalVersion && compared(nodeId, originalVersion, options);
  const rerun = rerunVersion && compared(nodeId, rerunVersion, options);
  const checksChanged =
    original?.checks && rerun?.checks ? verdictKey(original.checks) !== verdictKey(rerun.checks) : null;
  const numberChanged =
    original && rerun && (original.number !== null || rerun.number !== null) ? original.number !== rerun.number : null;
  return {
    nodeId,
    question,
    original,
    rerun,
    checksChanged,
    numberChanged,
    diverged: checksChanged === true || numberChanged === true,
  };
}

function compared(nodeId: string, version: Version, options: RunComparisonOptions): ComparedAnswer {
  return {
    versionId: version.id,
    model: version.model,
    number: options.numberOf?.(version.text) ?? null,
    checks: options.checksOf?.(nodeId, version) ?? null,
  };
}

/** The checks' verdicts as one comparable string, whatever order they were reported in. */
function verdictKey(checks: readonly CheckVerdict[]): string {
  return checks
    .map((check) => `${check.checkId}:${check.passed ? 1 : 0}`)
    .sort()
    .join('\n');
}
