import { DEFAULT_ENCODING, modelToEncodingMap } from 'gpt-tokenizer/mapping';

/** The public tokenizers Weft loads: OpenAI's current (o200k) and previous (cl100k) chat encodings. */
export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

/** The OpenAI model name inside a Weft model id (`openai/gpt-4o`, `openrouter/openai/gpt-4o-mini`), else null. */
function openAiModelName(modelId: string): string | null {
  const parts = modelId.split('/');
  if (parts.length === 2 && parts[0] === 'openai') return parts[1]!;
  if (parts.length === 3 && parts[0] === 'openrouter' && parts[1] === 'openai') return parts[2]!;
  return null;
}

/**
 * The tokenizer a model counts with, when its family's tokenizer is public; null means only an estimate
 * is possible (Anthropic, Ollama, other OpenRouter families, custom endpoints, the offline receipt).
 * gpt-tokenizer's table names the cl100k models and defaults the rest (gpt-4o, gpt-4.1, gpt-5, o-series)
 * to o200k; dated gpt-4/gpt-3.5 ids it does not list are still cl100k.
 */
export function tokenizerEncodingFor(modelId: string): TokenizerEncoding | null {
  const name = openAiModelName(modelId);
  if (!name) return null;
  const listed = (modelToEncodingMap as Record<string, string | undefined>)[name];
  const encoding = listed ?? (/^(gpt-3\.5|gpt-4($|-))/.test(name) ? 'cl100k_base' : DEFAULT_ENCODING);
  // gpt-oss (o200k_harmony) shares o200k's ranks; harmony adds only special tokens, which are counted as text.
  if (encoding === 'o200k_base' || encoding === 'o200k_harmony') return 'o200k_base';
  if (encoding === 'cl100k_base') return 'cl100k_base';
  return null;
}
