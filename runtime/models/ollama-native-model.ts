import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createOllama } from 'ollama-ai-provider-v2';
import { DEFAULT_OLLAMA_URL } from './ollama-detect.ts';

/**
 * An Ollama model over its native `/api/chat`, for runs that must set `num_ctx`, `seed` and `temperature`
 * (pass them as `providerOptions.ollama.options`): the OpenAI-compatible `/v1` endpoint the app uses ignores
 * `num_ctx`, so a long prompt would be cut to the server's default window without a word.
 */
export function createOllamaNativeModel(baseUrl: string | null, model: string): LanguageModelV3 {
  const root = (baseUrl ?? DEFAULT_OLLAMA_URL).replace(/\/+$/, '');
  return createOllama({ baseURL: `${root}/api` })(model);
}
