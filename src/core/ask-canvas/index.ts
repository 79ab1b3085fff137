// src/core/ask-canvas: the side chat about a canvas (C17). Pure assembly: the same canvas, chat and question give
// the same request bytes and hash.
export { canvasOutline, outlineNodes } from './canvas-outline.ts';
export type { CanvasOutline, OutlineEntry } from './canvas-outline.ts';
export { ASK_CANVAS_WINDOW, chatWindow } from './chat-window.ts';
export { splitCitations } from './citations.ts';
export type { AnswerPiece } from './citations.ts';
export { ASK_CANVAS_INSTRUCTIONS, askCanvasEvent, askCanvasRequest } from './ask-canvas-request.ts';
export type { AskCanvasInput, AskCanvasPart, AskCanvasPlan } from './ask-canvas-request.ts';
