import type { QuestionNode, RecallPlanRequest } from '../../../protocol/index.ts';
import type { Graph } from '../../core/index.ts';

/** The window assumed for a model the registry does not describe (the ceiling's two fifths are taken of it). */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/**
 * The recall request of `node`'s next ask, or null when recall is off for it (the default). Built the same way
 * for the preview and the run, so both ask the server for the same plan.
 */
export function recallRequestFor(graph: Graph, node: QuestionNode, model: object): RecallPlanRequest | null {
  const setting = node.recall;
  if (!setting?.enabled || !node.question.trim()) return null;
  return {
    question: node.question,
    canvasId: graph.canvas.id,
    nodeId: node.id,
    workingDirectory: graph.canvas.workingDirectory,
    setting,
    contextWindow:
      'contextWindow' in model && typeof model.contextWindow === 'number'
        ? model.contextWindow
        : FALLBACK_CONTEXT_WINDOW,
  };
}
