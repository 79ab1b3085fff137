// src/ui/ask-canvas: the side chat about the open canvas (C17).
export { AskCanvasPanel } from './AskCanvasPanel.tsx';
export { askCanvasClient, createAskCanvasClient } from './ask-canvas-client.ts';
export type { AskCanvasClient, AskCanvasView, PendingAsk } from './ask-canvas-client.ts';
export { createAskCanvasApi } from './ask-canvas-api.ts';
export type { AskCanvasApi } from './ask-canvas-api.ts';
export { ASK_CANVAS_COMMAND, registerAskCanvasCommands } from './ask-canvas-commands.ts';
export { planAsk } from './plan-ask.ts';
export type { PlannedAsk } from './plan-ask.ts';
