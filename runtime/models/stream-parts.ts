import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelMessage, ToolSet } from 'ai';
import { boundToolInput } from '../../src/core/index.ts';

/** What both readers of a provider's stream (`streamAnswer`, `streamDirect`) say the same way. */
export const ABORTED = {
  code: 'aborted' as const,
  message: 'The request was stopped before the answer finished.',
};

export const UNFINISHED = {
  code: 'provider-error' as const,
  message: 'The provider closed the stream without finishing the answer.',
};

/** A tool call's input as the text an event carries (bounded; a value the SDK parsed is written back as JSON). */
export function toolInputText(input: unknown): string {
  try {
    return boundToolInput(typeof input === 'string' ? input : (JSON.stringify(input) ?? ''));
  } catch {
    return '';
  }
}

/** A token count a provider reported, or null when it reported none. */
export function tokenCount(value: number | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** One answer's call, as `streamAnswer` takes it (and `streamDirect`, which it hands the calls without tools). */
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
  /** C35: tools the model may call (`runtime/tools`), run in the AI SDK's tool loop up to `stepLimit` model turns. */
  tools?: ToolSet;
  stepLimit?: number;
}
