/**
 * One past conversation from another chat product, normalised by a format reader (ChatGPT's mapping tree,
 * Claude.ai's message list) into a tree of the person's messages and the replies to them.
 */
export interface ImportedMessage {
  id: string;
  /** The message this one answers or follows; null at the top of the conversation. */
  parentId: string | null;
  role: 'user' | 'assistant';
  text: string;
  /** Epoch milliseconds, or null when the export gives no time. */
  at: number | null;
  /** The model the export names for a reply, or null. */
  model: string | null;
  /** Names of files attached to the message (their bytes are not in a conversations export). */
  attachments: string[];
}

export type ImportSource = 'chatgpt' | 'claude';

export interface ImportedConversation {
  source: ImportSource;
  id: string;
  title: string;
  /** Epoch milliseconds. */
  createdAt: number;
  messages: ImportedMessage[];
  /** The message the conversation was showing when exported (the current branch's end), if known. */
  currentLeafId: string | null;
  /** Messages the reader left out (system prompts, hidden context, tool calls and their output). */
  skipped: number;
  /** The model name used when a reply names none. */
  defaultModel: string;
}
