import { askCanvasRequest, type AskCanvasPlan } from '../../core/ask-canvas/index.ts';
import type { AskCanvasTurn, GenerateImage, ModelInfo } from '../../../protocol/index.ts';
import { modelFor, type WeftState } from '../store/index.ts';

export interface PlannedAsk {
  plan: AskCanvasPlan;
  model: Pick<ModelInfo, 'id' | 'takesImages'>;
  /** The bytes of the images the request names (only for a model that takes them). */
  images: GenerateImage[];
  focusId: string | null;
}

/**
 * What an ask of the canvas sends now: the preview and the send both call this, so the hash the preview shows is
 * the one the server must compute. The configured chat model (the canvas default), the node open in the panel as
 * the focus, and the shown stale set the badges use.
 */
export function planAsk(
  state: Pick<WeftState, 'graph' | 'shown' | 'models' | 'defaultModelId' | 'focusedNodeId'>,
  turns: readonly AskCanvasTurn[],
  question: string,
): PlannedAsk | null {
  const graph = state.graph;
  if (!graph) return null;
  const model = modelFor(state, null);
  const focusId = state.focusedNodeId && graph.nodes.has(state.focusedNodeId) ? state.focusedNodeId : null;
  const plan = askCanvasRequest(graph, {
    question,
    focusId,
    turns,
    stale: state.shown,
    model: model.id,
    images: model.takesImages,
  });
  const images: GenerateImage[] = [];
  for (const hash of plan.attachments) {
    const attachment = graph.attachments.get(hash);
    if (attachment) images.push({ hash, mediaType: attachment.mediaType, dataBase64: attachment.dataBase64 });
  }
  return { plan, model, images, focusId: plan.focusNumber === null ? null : focusId };
}
