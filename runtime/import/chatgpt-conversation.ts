import { z } from 'zod';
import type { ImportedConversation, ImportedMessage } from '../../src/core/index.ts';
import { describeIssues } from '../fs/index.ts';

/**
 * One element of ChatGPT's `conversations.json` (Settings → Data controls → Export): a `mapping` from node id to
 * `{ id, parent, children, message }`, a tree whose root has no message; `current_node` is the leaf shown when
 * exported. Only the fields Weft reads are checked; everything else is left alone.
 */
const AuthorSchema = z.object({ role: z.string() });
const ContentSchema = z.object({
  content_type: z.string(),
  parts: z.array(z.unknown()).nullish(),
  text: z.string().nullish(),
  language: z.string().nullish(),
});
const MessageSchema = z.object({
  id: z.string().nullish(),
  author: AuthorSchema,
  create_time: z.number().nullish(),
  content: ContentSchema,
  recipient: z.string().nullish(),
  weight: z.number().nullish(),
  metadata: z
    .object({
      model_slug: z.string().nullish(),
      is_visually_hidden_from_conversation: z.boolean().nullish(),
      attachments: z.array(z.object({ name: z.string().nullish(), id: z.string().nullish() })).nullish(),
    })
    .nullish(),
});
const MappingNodeSchema = z.object({
  id: z.string().nullish(),
  parent: z.string().nullish(),
  children: z.array(z.string()).nullish(),
  message: MessageSchema.nullish(),
});
export const ChatgptConversationSchema = z.object({
  id: z.string().nullish(),
  conversation_id: z.string().nullish(),
  title: z.string().nullish(),
  create_time: z.number().nullish(),
  current_node: z.string().nullish(),
  default_model_slug: z.string().nullish(),
  mapping: z.record(z.string(), MappingNodeSchema),
});

type Message = z.infer<typeof MessageSchema>;

export function isChatgptConversation(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'mapping' in value;
}

/**
 * The conversation as a tree of the person's messages and the replies. System prompts, hidden context, tool calls
 * (an assistant message addressed to a tool) and tool output are skipped, their children re-attached to the
 * nearest kept ancestor, so a browsing or code run inside one answer stays one reply.
 */
export function readChatgptConversation(value: unknown):
  | { ok: true; conversation: ImportedConversation }
  | {
      ok: false;
      reason: string;
    } {
  const parsed = ChatgptConversationSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, reason: `not a ChatGPT conversation: ${describeIssues(parsed.error.issues)}` };
  const raw = parsed.data;
  const mapping = raw.mapping;
  const kept = new Map<string, { role: 'user' | 'assistant'; message: Message }>();
  let skipped = 0;
  for (const [id, node] of Object.entries(mapping)) {
    const message = node.message;
    if (!message) continue;
    const role = keptRole(message);
    if (role) kept.set(id, { role, message });
    else skipped += 1;
  }
  // The nearest kept ancestor, walked with a visited set: a damaged mapping with a parent loop must not hang.
  const keptParent = (id: string): string | null => {
    const seen = new Set<string>([id]);
    let parent = mapping[id]?.parent ?? null;
    while (parent !== null && !kept.has(parent)) {
      if (seen.has(parent)) return null;
      seen.add(parent);
      parent = mapping[parent]?.parent ?? null;
    }
    return parent;
  };
  const messages: ImportedMessage[] = [];
  for (const [id, { role, message }] of kept) {
    messages.push({
      id,
      parentId: keptParent(id),
      role,
      text: messageText(message),
      at: typeof message.create_time === 'number' ? Math.round(message.create_time * 1000) : null,
      model: role === 'assistant' ? (message.metadata?.model_slug ?? null) : null,
      attachments: attachmentNames(message),
    });
  }
  const current = raw.current_node ?? null;
  return {
    ok: true,
    conversation: {
      source: 'chatgpt',
      id: raw.conversation_id ?? raw.id ?? '',
      title: raw.title ?? '',
      createdAt: typeof raw.create_time === 'number' ? Math.round(raw.create_time * 1000) : 0,
      messages,
      // The current node may be a skipped tool message: its nearest kept ancestor is on the same branch.
      currentLeafId: current === null ? null : kept.has(current) ? current : keptParent(current),
      skipped,
      defaultModel: raw.default_model_slug ?? 'chatgpt',
    },
  };
}

const SKIPPED_CONTENT = new Set([
  'thoughts',
  'reasoning_recap',
  'user_editable_context',
  'model_editable_context',
  'tether_browsing_display',
  'tether_quote',
  'sonic_webpage',
  'execution_output',
  'system_error',
]);

function keptRole(message: Message): 'user' | 'assistant' | null {
  const role = message.author.role;
  if (role !== 'user' && role !== 'assistant') return null;
  if (message.metadata?.is_visually_hidden_from_conversation) return null;
  if (message.weight === 0) return null;
  if (SKIPPED_CONTENT.has(message.content.content_type)) return null;
  // An assistant message to a tool (`recipient: "browser"`, `"python"`) is a call, not a reply.
  if (role === 'assistant' && message.recipient && message.recipient !== 'all') return null;
  return role;
}

function messageText(message: Message): string {
  const content = message.content;
  if (content.content_type === 'code') {
    return (
      '```' +
      (content.language && content.language !== 'unknown' ? content.language : '') +
      '\n' +
      (content.text ?? '') +
      '\n```'
    );
  }
  const parts = (content.parts ?? []).filter((part): part is string => typeof part === 'string');
  if (parts.length === 0 && typeof content.text === 'string') return content.text;
  return parts.join('\n').trim();
}

/** Named attachments, plus one note per embedded image (`image_asset_pointer` parts carry no name). */
function attachmentNames(message: Message): string[] {
  const names = (message.metadata?.attachments ?? []).map((attachment) => attachment.name ?? attachment.id ?? 'file');
  const images = (message.content.parts ?? []).filter(
    (part) =>
      typeof part === 'object' &&
      part !== null &&
      (part as { content_type?: unknown }).content_type === 'image_asset_pointer',
  ).length;
  // An uploaded image is usually listed both ways; count the pointers only beyond the named files.
  for (let index = names.length; index < images; index += 1) names.push('image');
  return names;
}
