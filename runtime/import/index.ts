// runtime/import: past conversations and documents brought into Weft (C34).
export { importConversations } from './import-conversations.ts';
export type { ConversationImportOptions, ConversationImportResult, ImportProgress } from './import-conversations.ts';
export { readChatgptConversation, isChatgptConversation } from './chatgpt-conversation.ts';
export { readClaudeConversation, isClaudeConversation } from './claude-conversation.ts';
export { readJsonArray } from './json-array-reader.ts';
export type { JsonArrayReadOptions, ElementHandler } from './json-array-reader.ts';
export { ImportError, positionAt } from './import-error.ts';
export type { ImportErrorCode, FilePosition } from './import-error.ts';
export { documentMaterial, documentFormatOf, DOCUMENT_MAX_BYTES } from './document-material.ts';
export type { DocumentMaterial, DocumentFormat } from './document-material.ts';
export { importIdGenerator } from './import-ids.ts';
