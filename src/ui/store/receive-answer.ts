import { shortHash, type CompiledContext, type Graph } from '../../core/index.ts';
import { TOOL_CALLS_MAX } from '../../../protocol/index.ts';
import type { GenerateImage, GenerateRequest, ModelInfo, ToolCallRecord, Usage } from '../../../protocol/index.ts';
import { clientHandshake, describeError } from '../api/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import type { WeftState } from './weft-state.ts';

export type AnswerOutcome = 'complete' | 'failed' | 'aborted';

export interface StreamedAnswer {
  text: string;
  /** True once the server confirmed it hashed the same request (C9); nothing is recorded otherwise. */
  committed: boolean;
  outcome: AnswerOutcome;
  /** C35: the tool calls the model made, in the order it made them, as the server recorded them. */
  toolCalls: ToolCallRecord[];
  /** The tokens the provider reported with the end of the answer; null when it reported none or did not finish. */
  usage: Usage | null;
}

/** The image bytes sent beside the request: only for models that take images (others get core's placeholder). */
export function requestImages(
  graph: Graph,
  compiled: CompiledContext,
  model: Pick<ModelInfo, 'takesImages'>,
): GenerateImage[] {
  if (!model.takesImages) return [];
  const images: GenerateImage[] = [];
  for (const hash of compiled.attachments) {
    const attachment = graph.attachments.get(hash);
    if (attachment) images.push({ hash, mediaType: attachment.mediaType, dataBase64: attachment.dataBase64 });
  }
  return images;
}

/**
 * Issue 31: an ask that sent a context hash (a model set's) is recorded only when the server hashed the same
 * context; a different or missing one is refused like a different request hash.
 */
function sameContext(body: GenerateRequest, serverHash: string | undefined, toast: WeftState['toast']): boolean {
  if (body.contextHash === undefined || serverHash === body.contextHash) return true;
  toast(
    'error',
    'context-hash-mismatch',
    `The server hashed the context as ${shortHash(serverHash ?? '(none)')}, not ${shortHash(body.contextHash)}; nothing was recorded.`,
  );
  return false;
}

/**
 * Receives one answer from the `/api/generate` stream (the server's `streamAnswer` sends it). The handshake
 * (`api/client-handshake.ts`): a server hash that differs from the client's is an error shown to the person and
 * aborts the answer; the commit (`onAccepted`) is written once, and deltas count only after it. Every run of a node (`run-node.ts`) reads its answer through this, and so does each answer of a set (from its share of the set's stream).
 */
export async function receiveAnswer(
  dependencies: Pick<AppDependencies, 'generate'>,
  body: GenerateRequest,
  controller: AbortController,
  toast: WeftState['toast'],
  hooks: { onAccepted?: () => void; onDelta?: (text: string) => void } = {},
): Promise<StreamedAnswer> {
  let text = '';
  const handshake = clientHandshake({
    expectedHash: body.requestHash,
    what: 'request',
    controller,
    refuse: (code, message) => toast('error', code, message),
  });
  let outcome: AnswerOutcome = 'aborted';
  let usage: Usage | null = null;
  const toolCalls: ToolCallRecord[] = [];
  // Calls end in any order (a refused one at once, a search later); the version keeps the order they were made.
  const startOrder = new Map<string, number>();
  try {
    for await (const event of dependencies.generate(body, controller.signal)) {
      if (event.type === 'request-accepted') {
        if (handshake.receive(event.requestHash) === 'refused' || !sameContext(body, event.contextHash, toast)) {
          controller.abort();
          outcome = 'failed';
          break;
        }
        handshake.commit(() => hooks.onAccepted?.());
      } else if (event.type === 'text-delta' && handshake.committed) {
        text += event.delta;
        hooks.onDelta?.(text);
      } else if (event.type === 'tool-call-started' && handshake.committed) {
        if (!startOrder.has(event.callId)) startOrder.set(event.callId, startOrder.size);
      } else if (event.type === 'tool-call-finished' && handshake.committed && toolCalls.length < TOOL_CALLS_MAX) {
        const { type: _type, ...call } = event;
        toolCalls.push(call);
      } else if (event.type === 'answer-finished') {
        outcome = 'complete';
        usage = event.usage;
        break;
      } else if (event.type === 'answer-failed') {
        outcome = event.code === 'aborted' ? 'aborted' : 'failed';
        if (event.code !== 'aborted') toast('error', event.code, event.message);
        break;
      }
    }
  } catch (error) {
    const { code, message } = describeError(error);
    if (!controller.signal.aborted) {
      outcome = 'failed';
      toast('error', code, message);
    }
  }
  const position = (call: ToolCallRecord) => startOrder.get(call.callId) ?? Number.MAX_SAFE_INTEGER;
  toolCalls.sort((first, second) => position(first) - position(second));
  return { text, committed: handshake.committed, outcome, toolCalls, usage };
}
