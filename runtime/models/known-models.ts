import type { ProviderKind } from '../../protocol/index.ts';

export interface KnownModel {
  model: string;
  label: string;
  contextWindow: number;
  takesImages: boolean;
  /** List prices in USD per million tokens when this table was written; null when unknown. */
  pricePerMTokIn: number | null;
  pricePerMTokOut: number | null;
}

/** A small built-in table: what each hosted provider offers by default. Custom ids fall back to DEFAULT_CONTEXT_WINDOW. */
export const KNOWN_MODELS: Record<'openai' | 'anthropic' | 'openrouter', KnownModel[]> = {
  openai: [
    {
      model: 'gpt-4.1',
      label: 'GPT-4.1',
      contextWindow: 1_047_576,
      takesImages: true,
      pricePerMTokIn: 2,
      pricePerMTokOut: 8,
    },
    {
      model: 'gpt-4.1-mini',
      label: 'GPT-4.1 mini',
      contextWindow: 1_047_576,
      takesImages: true,
      pricePerMTokIn: 0.4,
      pricePerMTokOut: 1.6,
    },
    {
      model: 'gpt-4o',
      label: 'GPT-4o',
      contextWindow: 128_000,
      takesImages: true,
      pricePerMTokIn: 2.5,
      pricePerMTokOut: 10,
    },
    {
      model: 'gpt-4o-mini',
      label: 'GPT-4o mini',
      contextWindow: 128_000,
      takesImages: true,
      pricePerMTokIn: 0.15,
      pricePerMTokOut: 0.6,
    },
    {
      model: 'o4-mini',
      label: 'o4-mini',
      contextWindow: 200_000,
      takesImages: true,
      pricePerMTokIn: 1.1,
      pricePerMTokOut: 4.4,
    },
  ],
  anthropic: [
    {
      model: 'claude-sonnet-4-5',
      label: 'Claude Sonnet 4.5',
      contextWindow: 200_000,
      takesImages: true,
      pricePerMTokIn: 3,
      pricePerMTokOut: 15,
    },
    {
      model: 'claude-opus-4-1',
      label: 'Claude Opus 4.1',
      contextWindow: 200_000,
      takesImages: true,
      pricePerMTokIn: 15,
      pricePerMTokOut: 75,
    },
    {
      model: 'claude-haiku-4-5',
      label: 'Claude Haiku 4.5',
      contextWindow: 200_000,
      takesImages: true,
      pricePerMTokIn: 1,
      pricePerMTokOut: 5,
    },
  ],
  openrouter: [
    {
      model: 'openai/gpt-4o-mini',
      label: 'GPT-4o mini (OpenRouter)',
      contextWindow: 128_000,
      takesImages: true,
      pricePerMTokIn: 0.15,
      pricePerMTokOut: 0.6,
    },
    {
      model: 'anthropic/claude-sonnet-4.5',
      label: 'Claude Sonnet 4.5 (OpenRouter)',
      contextWindow: 200_000,
      takesImages: true,
      pricePerMTokIn: 3,
      pricePerMTokOut: 15,
    },
    {
      model: 'meta-llama/llama-3.3-70b-instruct',
      label: 'Llama 3.3 70B (OpenRouter)',
      contextWindow: 131_072,
      takesImages: false,
      pricePerMTokIn: 0.13,
      pricePerMTokOut: 0.4,
    },
  ],
};

export const DEFAULT_CONTEXT_WINDOW = 8192;

/** Best guess for a model id no table knows (custom OpenAI-compatible or Ollama models). */
export function describeCustomModel(kind: ProviderKind, model: string): KnownModel {
  const table = kind === 'openai' || kind === 'anthropic' || kind === 'openrouter' ? KNOWN_MODELS[kind] : [];
  const known = table.find((entry) => entry.model === model);
  if (known) return known;
  return {
    model,
    label: model,
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    takesImages: /llava|vision|vl\b|-vl|gemma3|minicpm-v/i.test(model),
    pricePerMTokIn: null,
    pricePerMTokOut: null,
  };
}
