import type { AskCanvasTurn } from '../../../protocol/index.ts';

/** C17: how many earlier turns of the side chat ride each ask. */
export const ASK_CANVAS_WINDOW = 8;

/**
 * The earlier turns an ask carries: the last eight that have an answer, oldest first. A turn that failed before
 * any text arrived said nothing the model could build on, so it neither goes out nor takes a place in the window.
 */
export function chatWindow(turns: readonly AskCanvasTurn[]): AskCanvasTurn[] {
  return turns.filter((turn) => turn.answer.trim().length > 0).slice(-ASK_CANVAS_WINDOW);
}
