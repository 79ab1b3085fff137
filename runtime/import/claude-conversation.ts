import { z } from 'zod';
import type { ImportedConversation, ImportedMessage } from '../../src/core/index.ts';
import { describeIssues } from '../fs/index.ts';

/**
 * One element of Claude.ai's `conversations.json` (Settings → Privacy → Export data): `uuid`, `name`, ISO times
 * and `chat_messages` with `sender` `human` / `assistant`, `text`, `content` blocks, `attachments` (with the text
 * Claude extracted) and `files`. A message may name its `parent_message_uuid` (the root's is the all-zero uuid) and
 * the conversation its `current_leaf_message_uuid`: then edits and retries are branches; without them the list is
 * one linear thread.
 */
const ContentBlockSchema = z.object({ type: z.string(), text: z.string().nullish() });
const MessageSchema = z.object({
  uuid: z.string(),
  sender: z.string(),
  text: z.string().nullish(),
  content: z.array(ContentBlockSchema).nullish(),
  created_at: z.string().nullish(),
  parent_message_uuid: z.string().nullish(),
  attachments: z.array(z.object({ file_name: z.string().nullish() })).nullish(),
  files: z.array(z.object({ file_name: z.string().nullish() })).nullish(),
});
export const ClaudeConversationSchema = z.object({
  uuid: z.string(),
  name: z.string().nullish(),
  created_at: z.string().nullish(),
  model: z.string().nullish(),
  current_leaf_message_uuid: z.string().nullish(),
  chat_messages: z.array(MessageSchema),
});

const ROOT_PARENT = '00000000-0000-4000-8000-000000000000';

export function isClaudeConversation(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'chat_messages' in value;
}

export function readClaudeConversation(
  value: unknown,
): { ok: true; conversation: ImportedConversation } | { ok: false; reason: string } {
  const parsed = ClaudeConversationSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, reason: `not a Claude.ai conversation: ${describeIssues(parsed.error.issues)}` };
  const raw = parsed.data;
  const branched = raw.chat_messages.some((message) => typeof message.parent_message_uuid === 'string');
  const messages: ImportedMessage[] = [];
  let skipped = 0;
  let previous: string | null = null;
  for (const message of raw.chat_messages) {
    const role = message.sender === 'human' ? 'user' : message.sender === 'assistant' ? 'assistant' : null;
    if (!role) {
      skipped += 1;
      continue;
    }
    const parent = branched ? (message.parent_message_uuid ?? null) : previous;
    messages.push({
      id: message.uuid,
      parentId: parent === ROOT_PARENT ? null : parent,
      role,
      text: messageText(message),
      at: isoMilliseconds(message.created_at),
      model: null,
      attachments: [...(message.attachments ?? []), ...(message.files ?? [])].map(
        (attachment) => attachment.file_name ?? 'file',
      ),
    });
    previous = message.uuid;
  }
  return {
    ok: true,
    conversation: {
      source: 'claude',
      id: raw.uuid,
      title: raw.name ?? '',
      createdAt: isoMilliseconds(raw.created_at) ?? 0,
      messages,
      currentLeafId: raw.current_leaf_message_uuid ?? null,
      skipped,
      // The export names no model per message; a conversation-level `model` is kept when present.
      defaultModel: raw.model ? `claude.ai/${raw.model}` : 'claude.ai',
    },
  };
}

/** The text blocks in order (tool use, thinking and tool results are not the reply); `text` when there are none. */
function messageText(message: z.infer<typeof MessageSchema>): string {
  const blocks = (message.content ?? []).filter((block) => block.type === 'text' && typeof block.text === 'string');
  if (blocks.length === 0) return (message.text ?? '').trim();
  return blocks
    .map((block) => block.text!)
    .join('\n\n')
    .trim();
}

function isoMilliseconds(value: string | null | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) && time >= 0 ? time : null;
}
