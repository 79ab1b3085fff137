import { z } from 'zod';

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';

const TagsSchema = z.object({ models: z.array(z.object({ name: z.string() })) });

/**
 * Ask a local Ollama which models are installed (`GET /api/tags`), with a short timeout.
 * Returns null when nothing answers: Ollama is simply not running.
 */
export async function detectOllamaModels(
  baseUrl: string,
  timeoutMs = 400,
  fetchFunction: typeof fetch = fetch,
): Promise<string[] | null> {
  try {
    const response = await fetchFunction(new URL('/api/tags', baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return null;
    const parsed = TagsSchema.safeParse(await response.json());
    return parsed.success ? parsed.data.models.map((model) => model.name) : null;
  } catch {
    return null;
  }
}
