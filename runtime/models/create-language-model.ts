import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ProviderConfig } from './provider-config.ts';
import { DEFAULT_OLLAMA_URL } from './ollama-detect.ts';
import { providerFetch } from './provider-fetch.ts';
import { WeftError } from '../../protocol/index.ts';

const OPENROUTER_URL = 'https://openrouter.ai/api/v1';
// Named, not left to the SDK: with no base URL it would read OPENAI_BASE_URL / ANTHROPIC_BASE_URL from the process
// environment, and a key bound to the official origin would follow them elsewhere.
const OPENAI_URL = 'https://api.openai.com/v1';
const ANTHROPIC_URL = 'https://api.anthropic.com/v1';

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** One AI SDK language model for a configured provider and a model name. */
export function createLanguageModel(provider: ProviderConfig, model: string): LanguageModelV3 {
  const apiKey = provider.apiKey ?? undefined;
  // Without a key of its own the AI SDK would read OPENAI_API_KEY / ANTHROPIC_API_KEY from the process
  // environment and send it to whatever base URL the entry names: never call a hosted kind keyless.
  if (!apiKey && (provider.kind === 'openai' || provider.kind === 'anthropic'))
    throw new WeftError(
      'model-missing',
      `Provider "${provider.id}" has no key for ${provider.baseUrl ?? 'its host'}.`,
      400,
    );
  switch (provider.kind) {
    case 'openai':
      // `.chat()`: the default OpenAI model uses the Responses API, which compatible servers lack.
      return createOpenAI({ apiKey, baseURL: provider.baseUrl ?? OPENAI_URL, fetch: providerFetch }).chat(model);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL: provider.baseUrl ?? ANTHROPIC_URL, fetch: providerFetch })(model);
    case 'openrouter':
      return createOpenAICompatible({
        name: provider.id,
        baseURL: provider.baseUrl ?? OPENROUTER_URL,
        apiKey,
        includeUsage: true,
        fetch: providerFetch,
      }).chatModel(model);
    case 'openai-compatible':
      if (!provider.baseUrl) throw new WeftError('model-missing', `Provider "${provider.id}" has no base URL.`, 400);
      return createOpenAICompatible({
        name: provider.id,
        baseURL: trimSlash(provider.baseUrl),
        apiKey,
        includeUsage: true,
        fetch: providerFetch,
      }).chatModel(model);
    case 'ollama':
      // Ollama's own OpenAI-compatible endpoint: no extra provider package needed.
      return createOpenAICompatible({
        name: 'ollama',
        baseURL: trimSlash(provider.baseUrl ?? DEFAULT_OLLAMA_URL) + '/v1',
        includeUsage: true,
        fetch: providerFetch,
      }).chatModel(model);
  }
}
