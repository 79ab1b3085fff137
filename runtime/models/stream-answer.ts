import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { streamText, type ModelMessage } from 'ai';
import type { StreamEvent } from '../../protocol/index.ts';
import { mapProviderError } from './provider-errors.ts';

export interface StreamAnswerOptions {
  model: LanguageModelV3;
  messages: ModelMessage[];
  abortSignal: AbortSignal;
  /** Key values to scrub from any error message. */
  secrets?: readonly string[];
  /** Sampling settings for reproducible runs (the context-repair benchmark: temperature 0, a seed). */
  temperature?: number;
  seed?: number;
  /** Provider-specific options, e.g. `{ ollama: { options: { num_ctx } } }`. */
  providerOptions?: SharedV3ProviderOptions;
}

function count(value: number | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Stream one answer as protocol events: text-deltas, then exactly one answer-finished or
 * answer-failed. Never throws; provider errors become coded events (C11).
 */
export async function* streamAnswer(options: StreamAnswerOptions): AsyncGenerator<StreamEvent> {
  const secrets = options.secrets ?? [];
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
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) yield { type: 'text-delta', delta: part.text };
          break;
        case 'error': {
          const failure = options.abortSignal.aborted
            ? { code: 'aborted' as const, message: 'The request was stopped before the answer finished.' }
            : mapProviderError(part.error, secrets);
          yield { type: 'answer-failed', ...failure };
          return;
        }
        case 'abort':
          yield {
            type: 'answer-failed',
            code: 'aborted',
            message: 'The request was stopped before the answer finished.',
          };
          return;
        case 'finish':
          yield {
            type: 'answer-finished',
            finishReason: part.finishReason,
            usage: {
              inputTokens: count(part.totalUsage.inputTokens),
              outputTokens: count(part.totalUsage.outputTokens),
            },
          };
          return;
        default:
          break;
      }
    }
    yield {
      type: 'answer-failed',
      code: 'provider-error',
      message: 'The provider closed the stream without finishing the answer.',
    };
  } catch (error) {
    const failure = options.abortSignal.aborted
      ? { code: 'aborted' as const, message: 'The request was stopped before the answer finished.' }
      : mapProviderError(error, secrets);
    yield { type: 'answer-failed', ...failure };
  }
}
