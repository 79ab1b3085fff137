import type {
  CanonicalRequest,
  ChatToolId,
  DispatchLane,
  RequestMessage,
  RequestPart,
  ToolDeclaration,
} from '../../protocol/index.ts';
import { chatToolRequest } from './chat-tools.ts';
import type { CompiledContext } from './compiled-context.ts';
import type { EventDraft } from './event-log.ts';
import type { HashPort } from './hash-port.ts';
import { hashCanonical } from './hashing.ts';
import { wellFormed } from './well-formed.ts';

export interface BuildRequestOptions {
  model: string;
  /** Tool flags offered to the model, e.g. { webSearch: false }. */
  tools?: Record<string, boolean>;
  /** C35: the tools the node switched on; their flags and declarations enter the request (and its hash). */
  chatTools?: readonly ChatToolId[];
  /** C35: the MCP tools the node switched on, as declared then; they follow Weft's own in the request. */
  mcpTools?: readonly ToolDeclaration[];
  /** The [Memory] profile block, inserted verbatim as a user message before the question. */
  memoryBlock?: string | null;
  /** The recall block, inserted verbatim after the memory block, before the question. */
  recallBlock?: string | null;
  /** A system message put first (a role, or a tool/agent header), hashed like everything else. */
  system?: string | null;
  /** Whether the model takes images; when false each image becomes a named text placeholder. */
  images?: boolean;
  /** Which path dispatches (recorded on the commit event). Default 'chat'. */
  lane?: DispatchLane;
  /** SHA-256 for the request hash; the JavaScript port when absent. */
  hash?: HashPort;
  /** Issue 31: a model set's sampling temperature, carried by the request (and covered by its hash). */
  temperature?: number;
}

/** Where each request message came from: a compiled message (by its index in `compiled.messages`) or a late block. */
export type RequestMessageSource =
  { kind: 'compiled'; index: number } | { kind: 'late'; source: 'profile' | 'recall' | 'system' };

export interface BuiltRequest {
  request: CanonicalRequest;
  /** One entry per request message, in order, so the preview can label a late block as its own part. */
  messageSources: RequestMessageSource[];
  /** C9: SHA-256 over RFC 8785 canonical JSON of `request`, late blocks included. */
  requestHash: string;
  /** The `commit` event to append when the request is actually sent. */
  commit: EventDraft;
}

/** Placeholder for an image the model cannot take; names the attachment by its hash. */
export function imagePlaceholder(hash: string, mediaType: string): string {
  return `[Image ${hash.slice(0, 12)} (${mediaType}) left out: this model does not take images]`;
}

/** The request before its hash: what `buildRequest` hashes, and what a preview can show while it hashes elsewhere. */
export type AssembledRequest = Pick<BuiltRequest, 'request' | 'messageSources'>;

/** C9: the canonical request exactly as the dispatch sends it, not yet hashed. */
export function assembleRequest(compiled: CompiledContext, options: BuildRequestOptions): AssembledRequest {
  const takesImages = options.images ?? true;
  const messages: RequestMessage[] = compiled.messages.map((message) => ({
    role: message.role,
    content: message.content.map((part): RequestPart => {
      if (part.type === 'image' && !takesImages)
        return { type: 'text', text: imagePlaceholder(part.hash, part.mediaType) };
      return part.type === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'image', hash: part.hash, mediaType: part.mediaType };
    }),
  }));
  const messageSources: RequestMessageSource[] = messages.map((_message, index) => ({ kind: 'compiled', index }));
  const late: RequestMessage[] = [];
  const lateSources: RequestMessageSource[] = [];
  if (options.memoryBlock) {
    late.push({ role: 'user', content: [{ type: 'text', text: wellFormed(options.memoryBlock) }] });
    lateSources.push({ kind: 'late', source: 'profile' });
  }
  if (options.recallBlock) {
    late.push({ role: 'user', content: [{ type: 'text', text: wellFormed(options.recallBlock) }] });
    lateSources.push({ kind: 'late', source: 'recall' });
  }
  // Late blocks sit just before the question, which compile always puts last.
  messages.splice(Math.max(0, messages.length - 1), 0, ...late);
  messageSources.splice(Math.max(0, messageSources.length - 1), 0, ...lateSources);
  if (options.system) {
    messages.unshift({ role: 'system', content: [{ type: 'text', text: wellFormed(options.system) }] });
    messageSources.unshift({ kind: 'late', source: 'system' });
  }
  const request: CanonicalRequest = { model: options.model, messages, tools: { ...(options.tools ?? {}) } };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.chatTools?.length || options.mcpTools?.length) {
    const offered = chatToolRequest(options.chatTools ?? [], options.mcpTools);
    Object.assign(request.tools, offered.tools);
    if (offered.toolDeclarations) request.toolDeclarations = offered.toolDeclarations;
  }
  return { request, messageSources };
}

/** C9: the canonical request and its hash, exactly as the dispatch sends it. */
export function buildRequest(compiled: CompiledContext, options: BuildRequestOptions): BuiltRequest {
  const { request, messageSources } = assembleRequest(compiled, options);
  const requestHash = hashCanonical(request, options.hash);
  const lane = options.lane ?? 'chat';
  return {
    request,
    messageSources,
    requestHash,
    commit: {
      op: 'commit',
      objectId: compiled.nodeId,
      meta: { requestHash, messageCount: request.messages.length, model: options.model, lane },
    },
  };
}
