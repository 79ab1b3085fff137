import type { ReplayProgress } from '../store/index.ts';

/**
 * The progress chip's words for the job that runs: "Replaying 2/5", "Asking 3 models…" (a set's answers stream a
 * few at a time, so no single one is "current"), "Re-running under <model> 2/5…". `modelLabel` names a model as
 * the pickers do.
 */
export function progressWords(progress: ReplayProgress, modelLabel: (modelId: string) => string): string {
  const step = `${Math.min(progress.done + 1, progress.total)}/${progress.total}`;
  switch (progress.job.kind) {
    case 'replay':
      return `Replaying ${step}`;
    case 'set':
      return `Asking ${progress.job.models} models…`;
    case 'rerun':
      return `Re-running under ${modelLabel(progress.job.model)} ${step}…`;
  }
}
