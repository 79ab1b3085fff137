import { z } from 'zod';

/**
 * #29: how an item in memory is known. `stated`: the person's own words; `observed`: read from a session file as
 * written; `reconstructed`: rebuilt from partial data (a resumed or interrupted session, a cut-short file);
 * `inferred`: a model's summary or judgment. Read paths take `stated` and `observed` by default.
 */
export const KnownAsSchema = z.enum(['stated', 'observed', 'reconstructed', 'inferred']);
export type KnownAs = z.infer<typeof KnownAsSchema>;

/**
 * #29: how one question node reads memory. `includeInferred` lets `inferred` items into its [Memory] and recall
 * blocks (marked as such); `asOf` (epoch ms) serves the lines valid at that time instead of now. Absent means
 * `{ includeInferred: false, asOf: null }`. Both change what is sent, so the preview shows them and the hash covers them.
 */
export const MemoryReadingSchema = z.object({
  includeInferred: z.boolean(),
  asOf: z.number().int().nonnegative().nullable(),
});
export type MemoryReading = z.infer<typeof MemoryReadingSchema>;

export const DEFAULT_MEMORY_READING: MemoryReading = { includeInferred: false, asOf: null };

/**
 * #29: where a source was cut short, how: `interrupted` (the runner marked the turn interrupted), `truncated` (the
 * stored text stops at the index's cap, or a memory file at its read cap). Absent or null means complete.
 */
export const CompletenessSchema = z.enum(['interrupted', 'truncated']);
export type Completeness = z.infer<typeof CompletenessSchema>;
