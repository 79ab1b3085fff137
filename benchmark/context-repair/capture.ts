import { sha256Hex } from '../../src/core/index.ts';
import type { BenchModel } from './bench-model.ts';
import { withRetry, type RetryEnvironment } from './call-retry.ts';
import {
  CONDITIONS,
  conditionContext,
  equivalenceProblems,
  type Condition,
  type ConditionContext,
} from './conditions.ts';
import type { BenchCase, CaseSet } from './generate-cases.ts';
import { RecomputeSession } from './recompute-session.ts';
import {
  missingRegenerations,
  regenerationReference,
  TRACE_FORMAT,
  tracesByItem,
  type RegenerationReference,
  type Trace,
  type TraceStore,
} from './trace-store.ts';

export interface CaptureItem {
  benchCase: BenchCase;
  condition: Condition;
  key: string;
}

export interface CaptureReport {
  planned: number;
  /** Items that already had a trace (a resumed run skips them). */
  skipped: number;
  /** Traces written this run: final requests and Replay steps alike. */
  written: number;
  failed: { key: string; code: string; message: string; attempts: number }[];
}

export interface CaptureOptions {
  /** At most this many cases (each with all seven conditions), taken evenly across families and depths. */
  limit?: number;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  now?: () => Date;
  /** How failed calls are retried (429, 5xx, network): policy, and the clock and sleep (tests script them). */
  retry?: RetryEnvironment;
}

export const itemKey = (caseId: string, condition: Condition) => `${caseId}/${condition}`;

/** Every item in capture order: case index first, so `--limit` covers each family and depth alike. */
export function captureItems(caseSet: CaseSet, limit?: number): CaptureItem[] {
  // Ids end in the case's index within its cell; the sort is stable, so families and depths stay in order.
  const cases = [...caseSet.cases].sort((left, right) => left.id.slice(-2).localeCompare(right.id.slice(-2)));
  return cases
    .slice(0, limit ?? cases.length)
    .flatMap((benchCase) =>
      CONDITIONS.map((condition) => ({ benchCase, condition, key: itemKey(benchCase.id, condition) })),
    );
}

/** The keys of every regeneration trace a full run holds, in capture order (planned without a model). */
export function regenerationItems(caseSet: CaseSet, limit?: number): string[] {
  return captureItems(caseSet, limit)
    .filter((item) => item.condition === 'recompute-descendants')
    .flatMap((item) => new RecomputeSession(item.benchCase, 'plan').steps.map((step) => step.key));
}

type TraceBody = Pick<Trace, 'item' | 'step' | 'regenerates' | 'replayIndex' | 'regenerations' | 'gold' | 'wrong'>;

/**
 * Compiles each item's request with core (checked against the reference compiler first), sends it, and stores
 * the trace. `recompute-descendants` first re-asks each contaminated descendant in core's Replay order, each
 * request its own trace, then asks the target on the regenerated context. Items already traced are skipped and a
 * Replay step whose request is already traced reuses its stored reply, so an interrupted run resumes where it
 * stopped, in order; a failed call is reported and left for the next run, never stored as an answer. A stored
 * final whose request today's compiler no longer builds refuses the run (`compiler-changed`) before anything is sent.
 */
export async function capture(
  caseSet: CaseSet,
  model: BenchModel,
  store: TraceStore,
  options: CaptureOptions = {},
): Promise<CaptureReport> {
  const now = options.now ?? (() => new Date());
  const items = captureItems(caseSet, options.limit);
  const byItem = tracesByItem((await store.readAll()).traces.filter((trace) => trace.model === model.id));
  const finals = (key: string) => (byItem.get(key) ?? []).filter((trace) => trace.step !== 'regenerate');
  /** Whether today's compiler builds `trace`'s request again (for a recompute, on the replies it was built on). */
  const rebuilt = (item: CaptureItem, trace: Trace): boolean => {
    if (item.condition !== 'recompute-descendants')
      return conditionContext(item.benchCase, item.condition, model.id).built.requestHash === trace.requestHash;
    const session = new RecomputeSession(item.benchCase, model.id);
    if (session.steps.length !== trace.regenerations.length) return false;
    for (const step of session.steps) {
      const reference = trace.regenerations[step.index]!;
      if (reference.item !== step.key || reference.requestHash !== session.stepContext(step).built.requestHash)
        return false;
      const stored = byItem
        .get(step.key)!
        .find(
          (candidate) =>
            candidate.requestHash === reference.requestHash && sha256Hex(candidate.answer) === reference.answerSha256,
        )!;
      session.regenerated(step, stored.answer);
    }
    return session.finalContext().built.requestHash === trace.requestHash;
  };
  /**
   * An item is complete when a final trace holds the request today's compiler builds. A final traced under the
   * item's key with another request was made by another compiler: resuming on it would mix two compilers' bytes
   * in one run, so the run is refused.
   */
  const complete = (item: CaptureItem) => {
    const whole = finals(item.key).filter((trace) => missingRegenerations(trace, byItem).length === 0);
    if (whole.length === 0) return false;
    if (whole.some((trace) => rebuilt(item, trace))) return true;
    throw Object.assign(
      new Error(
        `${item.key} was traced with request ${whole[0]!.requestHash.slice(0, 12)}, which today's compiler no longer builds: the compiler changed since this run began; start a new run folder (--runs-dir) or bump CAPTURE_VERSION`,
      ),
      { code: 'compiler-changed', item: item.key },
    );
  };
  const pending = items.filter((item) => !complete(item));
  const report: CaptureReport = {
    planned: items.length,
    skipped: items.length - pending.length,
    written: 0,
    failed: [],
  };

  const checked = (key: string, context: ConditionContext, answers?: ReadonlyMap<string, string>) => {
    const problems = equivalenceProblems(context, answers);
    if (problems.length > 0) throw new Error(`${key} fails the equivalence check: ${problems.join('; ')}`);
    return context;
  };
  /** Sends one request and stores its trace; null when the call failed (reported, nothing stored). */
  const send = async (item: CaptureItem, context: ConditionContext, body: TraceBody): Promise<Trace | null> => {
    const settings = model.settingsFor(context.built.request);
    const started = performance.now();
    const { result: answer, retries } = await withRetry(async () => {
      const reply = await model.ask(context.built.request, settings);
      return reply.ok ? { ok: true as const, answer: reply } : reply;
    }, options.retry);
    const elapsedMs = Math.round(performance.now() - started);
    if (!answer.ok) {
      report.failed.push({ key: body.item, code: answer.code, message: answer.message, attempts: retries.length + 1 });
      return null;
    }
    const trace: Trace = {
      format: TRACE_FORMAT,
      version: 3,
      ...body,
      caseId: item.benchCase.id,
      family: item.benchCase.family,
      depth: item.benchCase.depth,
      condition: item.condition,
      caseSetHash: caseSet.hash,
      model: model.id,
      scripted: model.scripted,
      providerKind: model.providerKind,
      settings,
      operations: context.operations,
      staleNodes: [...context.stale].sort(),
      requestHash: context.built.requestHash,
      request: context.built.request,
      answer: answer.answer.text,
      finishReason: answer.answer.finishReason,
      inputTokens: answer.answer.inputTokens,
      outputTokens: answer.answer.outputTokens,
      retries,
      capturedAt: now().toISOString(),
      elapsedMs,
    };
    await store.write(trace);
    report.written += 1;
    return trace;
  };
  const final = { step: 'final', regenerates: null, replayIndex: null } as const;

  const captureSingle = async (item: CaptureItem) => {
    const context = checked(item.key, conditionContext(item.benchCase, item.condition, model.id));
    const { gold, wrong } = item.benchCase;
    await send(item, context, { ...final, item: item.key, regenerations: [], gold, wrong });
  };
  const captureRecompute = async (item: CaptureItem) => {
    const session = new RecomputeSession(item.benchCase, model.id);
    const regenerations: RegenerationReference[] = [];
    for (const step of session.steps) {
      const context = checked(step.key, session.stepContext(step), session.expectedAnswers());
      const traced =
        (byItem.get(step.key) ?? []).find((trace) => trace.requestHash === context.built.requestHash) ??
        (await send(item, context, {
          item: step.key,
          step: 'regenerate',
          regenerates: step.name,
          replayIndex: step.index,
          regenerations: [...regenerations],
          gold: step.gold,
          wrong: step.wrong,
        }));
      if (!traced) return; // the Replay stops at a failed step; the next run retries it
      regenerations.push(regenerationReference(traced));
      session.regenerated(step, traced.answer);
    }
    const context = checked(item.key, session.finalContext(), session.expectedAnswers());
    if (finals(item.key).some((trace) => trace.requestHash === context.built.requestHash)) return;
    const { gold, wrong } = item.benchCase;
    await send(item, context, { ...final, item: item.key, regenerations, gold, wrong });
  };

  let finished = report.skipped;
  options.onProgress?.(finished, items.length);
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const item = pending[next++]!;
      await (item.condition === 'recompute-descendants' ? captureRecompute(item) : captureSingle(item));
      finished += 1;
      options.onProgress?.(finished, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  return report;
}
