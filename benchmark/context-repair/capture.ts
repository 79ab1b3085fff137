import type { BenchModel } from './bench-model.ts';
import { CONDITIONS, conditionContext, equivalenceProblems, type Condition } from './conditions.ts';
import type { BenchCase, CaseSet } from './generate-cases.ts';
import type { TraceStore } from './trace-store.ts';

export interface CaptureItem {
  benchCase: BenchCase;
  condition: Condition;
  key: string;
}

export interface CaptureReport {
  planned: number;
  /** Items that already had a trace (a resumed run skips them). */
  skipped: number;
  written: number;
  failed: { key: string; code: string; message: string }[];
}

export interface CaptureOptions {
  /** At most this many cases (each with all seven conditions), taken evenly across families and depths. */
  limit?: number;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  now?: () => Date;
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

/**
 * Compiles each item's request with core (checked against the reference compiler first), sends it, and stores
 * the trace. Items already traced are skipped, so an interrupted run resumes where it stopped; a failed call is
 * reported and left for the next run, never stored as an answer.
 */
export async function capture(
  caseSet: CaseSet,
  model: BenchModel,
  store: TraceStore,
  options: CaptureOptions = {},
): Promise<CaptureReport> {
  const now = options.now ?? (() => new Date());
  const items = captureItems(caseSet, options.limit);
  const done = new Set(
    (await store.readAll()).traces.filter((trace) => trace.model === model.id).map((trace) => trace.item),
  );
  const pending = items.filter((item) => !done.has(item.key));
  const report: CaptureReport = {
    planned: items.length,
    skipped: items.length - pending.length,
    written: 0,
    failed: [],
  };
  let finished = report.skipped;
  options.onProgress?.(finished, items.length);
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const item = pending[next++]!;
      const context = conditionContext(item.benchCase, item.condition, model.id);
      const problems = equivalenceProblems(context);
      if (problems.length > 0) throw new Error(`${item.key} fails the equivalence check: ${problems.join('; ')}`);
      const settings = model.settingsFor(context.built.request);
      const started = performance.now();
      const answer = await model.ask(context.built.request, settings);
      const elapsedMs = Math.round(performance.now() - started);
      if (!answer.ok) report.failed.push({ key: item.key, code: answer.code, message: answer.message });
      else {
        await store.write({
          format: 'weft.context-repair.trace',
          version: 1,
          item: item.key,
          caseId: item.benchCase.id,
          family: item.benchCase.family,
          depth: item.benchCase.depth,
          condition: item.condition,
          gold: item.benchCase.gold,
          wrong: item.benchCase.wrong,
          caseSetHash: caseSet.hash,
          model: model.id,
          scripted: model.scripted,
          providerKind: model.providerKind,
          settings,
          operations: context.operations,
          staleNodes: [...context.stale].sort(),
          requestHash: context.built.requestHash,
          request: context.built.request,
          answer: answer.text,
          finishReason: answer.finishReason,
          inputTokens: answer.inputTokens,
          outputTokens: answer.outputTokens,
          capturedAt: now().toISOString(),
          elapsedMs,
        });
        report.written += 1;
      }
      finished += 1;
      options.onProgress?.(finished, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  return report;
}
