// src/core/import: past conversations from other chat products, as canvases built through typed changes (C34).
export { conversationCanvas, IMPORT_COLUMN_GAP, IMPORT_ROW_GAP } from './conversation-canvas.ts';
export type { ConversationCanvas, ConversationCanvasCounts, ConversationCanvasOptions } from './conversation-canvas.ts';
export { planConversation } from './plan-conversation.ts';
export type { PlannedQuestion, PlannedReply } from './plan-conversation.ts';
export type { ImportedConversation, ImportedMessage, ImportSource } from './imported-conversation.ts';
