import type { CanonicalRequest, GenerateFailureCode, GenerateRequest, StreamEvent } from '../protocol/index.ts';
import type { CommitFields } from '../runtime/fs/index.ts';
import { mapProviderError, streamAnswer, type StreamAnswerOptions } from '../runtime/models/index.ts';
import { chatToolset, mcpToolset } from '../runtime/tools/index.ts';
import { declaredChatTools, declaredMcpTools } from '../src/core/index.ts';
import { commitTarget } from './commit-target.ts';
import type { AcceptedDispatch } from './dispatch-handshake.ts';
import type { ServerContext } from './server-context.ts';

/** What a model dispatch may use, checked once per request (or once per set: its answers share one context). */
export interface PreparedDispatch {
  tools: StreamAnswerOptions['tools'];
  toolCount: number;
  /** What the ledger records with the commit; null for a request that names no question node. */
  target: Omit<CommitFields, 'requestHash'> | null;
}

export type PreparedResult =
  { ok: true; value: PreparedDispatch } | { ok: false; code: GenerateFailureCode; message: string };

/**
 * The checks before any model call of `/api/generate` and `/api/generate-set`: C35's tools (only those declared
 * exactly as Weft declares them run; MCP tools bound to their live servers), and issue 27.3's target (the stored
 * canvas must hold the node as a question; who wrote it is read from the record). The record is read while MCP
 * servers bind.
 */
export async function prepareDispatch(
  context: ServerContext,
  request: CanonicalRequest,
  target: GenerateRequest['target'],
): Promise<PreparedResult> {
  const declared = declaredChatTools(request);
  if (!declared.ok) return { ok: false, code: declared.error.code, message: declared.error.message };
  const checking = target ? commitTarget(context, target, request) : null;
  const mcp = await context.mcp.bind(declaredMcpTools(request));
  if ('refusal' in mcp) return { ok: false, code: mcp.refusal.code, message: mcp.refusal.message };
  const checked = checking ? await checking : null;
  if (checked && !checked.ok) return { ok: false, code: 'dispatch-target-mismatch', message: checked.message };
  const toolset = {
    ...(declared.value.length > 0 ? chatToolset(declared.value, context.chatTools) : {}),
    ...mcpToolset(mcp.bindings, context.mcp),
  };
  return {
    ok: true,
    value: {
      tools: Object.keys(toolset).length > 0 ? toolset : undefined,
      toolCount: declared.value.length + mcp.bindings.length,
      target: checked ? checked.fields : null,
    },
  };
}

/** One append to the commit ledger; a failed one is logged and leaves the answer unrecorded (never evidence). */
async function intoLedger<T>(context: ServerContext, append: () => Promise<T>): Promise<T | null> {
  try {
    return await append();
  } catch (error) {
    context.logger.warn('commit ledger append failed', { code: (error as { code?: unknown }).code ?? null });
    return null;
  }
}

export interface AnswerDispatchOptions {
  dispatch: AcceptedDispatch;
  request: CanonicalRequest;
  messages: StreamAnswerOptions['messages'];
  prepared: PreparedDispatch;
  signal: AbortSignal;
  send: (event: StreamEvent) => void;
}

/**
 * C9's hand-over of one checked model dispatch, the one path of every answer (`/api/generate`'s, and each of a
 * set's): resolve the model, accept (the commit: sent only once a model is resolved and its call is about to start,
 * so an unknown model or a missing key fails without one), record the commit in the ledger for a question node,
 * stream the answer, and record its hash when it streamed to the end — before the client hears the end, so a judge
 * it asks next finds the answer in the ledger. Never throws: a failure is an `answer-failed` event.
 */
export async function answerDispatch(context: ServerContext, options: AnswerDispatchOptions): Promise<string> {
  const { dispatch, request, prepared, send } = options;
  const requestHash = dispatch.serverHash;
  let toolCalls = 0;
  const startedAt = Date.now();
  let outcome = 'finished';
  try {
    const model = await context.registry.resolve(request.model, { requestHash });
    dispatch.accept();
    const target = prepared.target;
    const commit = target
      ? await intoLedger(context, () =>
          context.commits.commit({ requestHash, contextHash: dispatch.contextHash!, ...target }),
        )
      : null;
    let answer = '';
    for await (const event of streamAnswer({
      model,
      messages: options.messages,
      abortSignal: options.signal,
      secrets: context.secretValues(),
      // Issue 31: a model set's temperature travels in the request, so its hash covers it.
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(prepared.tools ? { tools: prepared.tools } : {}),
    })) {
      if (event.type === 'answer-failed') outcome = event.code;
      if (event.type === 'tool-call-finished') toolCalls += 1;
      if (event.type === 'text-delta') answer += event.delta;
      if (event.type === 'answer-finished' && commit !== null)
        await intoLedger(context, () => context.commits.answered(commit, context.hash.sha256Hex(answer)));
      send(event);
    }
  } catch (error) {
    const failure = mapProviderError(error, context.secretValues());
    outcome = failure.code;
    send({ type: 'answer-failed', ...failure });
  }
  context.logger.info('generate', {
    model: request.model,
    messages: request.messages.length,
    requestHash,
    ...(dispatch.contextHash ? { contextHash: dispatch.contextHash } : {}),
    tools: prepared.toolCount,
    toolCalls,
    outcome,
    ms: Date.now() - startedAt,
  });
  return outcome;
}
