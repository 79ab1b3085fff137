import type { QuestionNode, RecallPlanRequest } from '../../../protocol/index.ts';
import type { Graph } from '../graph.ts';

/** The window assumed for a model the registry does not describe (the ceiling's two fifths are taken of it). */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/**
 * The recall request of `node`'s next ask, or null when recall is off for it (the default). Built the same way
 * for the app's preview and run and for `weft compile`, so all of them plan the same block.
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
    // #29: inferred dossiers only behind the node's switch, and a node dated "as of" recalls the dossiers as they
    // stood then; absent for a node that never set either (the bytes as before).
    ...(node.memoryReading && { memoryReading: node.memoryReading }),
  };
}
