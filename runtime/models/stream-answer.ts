import { InvalidToolInputError, NoSuchToolError, stepCountIs, streamText } from 'ai';
import { TOOL_STEP_LIMIT, type StreamEvent } from '../../protocol/index.ts';
import { boundToolOutput } from '../../src/core/index.ts';
import { isToolOutcome } from '../tools/index.ts';
import { mapProviderError, redactSecrets } from './provider-errors.ts';
import { streamDirect } from './stream-direct.ts';
import { ABORTED, tokenCount, toolInputText, UNFINISHED, type StreamAnswerOptions } from './stream-parts.ts';

export type { StreamAnswerOptions } from './stream-parts.ts';

/** A tool call the SDK itself could not run (not declared, input not valid) is recorded with its code. */
function invalidCallCode(error: unknown): string {
  if (NoSuchToolError.isInstance(error)) return 'tool-not-declared';
  if (InvalidToolInputError.isInstance(error)) return 'tool-input-invalid';
  return 'tool-failed';
}

/**
 * Stream one answer as protocol events: text-deltas, then exactly one answer-finished or
 * answer-failed. Never throws; provider errors become coded events (C11).
 */
export async function* streamAnswer(options: StreamAnswerOptions): AsyncGenerator<StreamEvent> {
  // Without tools there is no loop for the SDK to run: the provider's own stream is read directly, at about half the
  // CPU per answer (a model set of 32 answers, `bench:compare`), with the same prompt conversion and the same request.
  if (!options.tools || Object.keys(options.tools).length === 0) {
    yield* streamDirect(options);
    return;
  }
  const secrets = options.secrets ?? [];
  const invalidCalls = new Map<string, string>();
  try {
    const result = streamText({
      model: options.model,
      messages: options.messages,
      // The canonical request carries its system message in order; it is the person's own role text.
      allowSystemInMessages: true,
      abortSignal: options.abortSignal,
      // A retry would hide a 429 or a bad key behind seconds of silence; the person decides.
      maxRetries: 0,
      // Errors arrive as stream parts below; the default handler would print them (and maybe a key).
      onError: () => undefined,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      ...(options.tools && Object.keys(options.tools).length > 0
        ? { tools: options.tools, stopWhen: stepCountIs(options.stepLimit ?? TOOL_STEP_LIMIT) }
        : {}),
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) yield { type: 'text-delta', delta: part.text };
          break;
        case 'tool-call':
          // The SDK flags a call it cannot run; its tool-error that follows carries only a message.
          if ('invalid' in part && part.invalid) invalidCalls.set(part.toolCallId, invalidCallCode(part.error));
          yield {
            type: 'tool-call-started',
            callId: part.toolCallId.slice(0, 200),
            tool: part.toolName.slice(0, 64),
            input: toolInputText(part.input),
          };
          break;
        case 'tool-result': {
          const outcome = isToolOutcome(part.output)
            ? part.output
            : { status: 'error' as const, code: 'tool-failed', text: 'The tool gave no result.' };
          yield {
            type: 'tool-call-finished',
            callId: part.toolCallId.slice(0, 200),
            tool: part.toolName.slice(0, 64),
            input: toolInputText(part.input),
            output: boundToolOutput(outcome.text),
            status: outcome.status,
            code: outcome.code,
          };
          break;
        }
        case 'tool-error': {
          const code = invalidCalls.get(part.toolCallId) ?? 'tool-failed';
          yield {
            type: 'tool-call-finished',
            callId: part.toolCallId.slice(0, 200),
            tool: part.toolName.slice(0, 64),
            input: toolInputText(part.input),
            // What the SDK hands the model for this call (its own message), keys scrubbed.
            output: boundToolOutput(
              redactSecrets(part.error instanceof Error ? part.error.message : String(part.error), secrets),
            ),
            status: 'error',
            code,
          };
          break;
        }
        case 'error': {
          const failure = options.abortSignal.aborted ? ABORTED : mapProviderError(part.error, secrets);
          yield { type: 'answer-failed', ...failure };
          return;
        }
        case 'abort':
          yield { type: 'answer-failed', ...ABORTED };
          return;
        case 'finish':
          yield {
            type: 'answer-finished',
            finishReason: part.finishReason,
            usage: {
              inputTokens: tokenCount(part.totalUsage.inputTokens),
              outputTokens: tokenCount(part.totalUsage.outputTokens),
            },
          };
          return;
        default:
          break;
      }
    }
    yield { type: 'answer-failed', ...UNFINISHED };
  } catch (error) {
    const failure = options.abortSignal.aborted ? ABORTED : mapProviderError(error, secrets);
    yield { type: 'answer-failed', ...failure };
  }
}
