import { z } from 'zod';
import { WeftError } from '../../protocol/index.ts';

/** A search answer is a few kilobytes; anything far larger is not a search answer. */
export const SEARCH_MAX_BYTES = 1024 * 1024;

const InputSchema = z.object({
  query: z.string().trim().min(1).max(300),
  rows: z.number().int().min(1).max(10).optional(),
});

/** The `{ query, rows? }` every keyword search tool takes, checked (`tool-input-invalid`), rows defaulting to 5. */
export function parseSearchInput(tool: string, input: unknown): { query: string; rows: number } {
  const parsed = InputSchema.safeParse(input);
  if (!parsed.success)
    throw new WeftError('tool-input-invalid', `${tool} takes { query: 1–300 characters, rows?: 1–10 }.`);
  return { query: parsed.data.query, rows: parsed.data.rows ?? 5 };
}

/** Up to three names, then “et al.”; a search line stays short. */
export function authorList(names: readonly string[]): string {
  const named = names.map((name) => name.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (named.length === 0) return 'unknown authors';
  return named.length > 3 ? `${named.slice(0, 3).join(', ')} et al.` : named.join(', ');
}
