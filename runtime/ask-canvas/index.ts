// runtime/ask-canvas: where each canvas's side chat (C17) is kept on disk.
export { CanvasChatStore, canvasChatsDirectory } from './canvas-chat-store.ts';
