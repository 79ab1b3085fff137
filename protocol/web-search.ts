import { z } from 'zod';

/**
 * C35 web search: the service the person configures in Settings — Brave (a key, stored with the provider keys,
 * never returned, exported or logged) or a SearXNG instance (its URL). Without one the tool is refused.
 */
export const WebSearchProviderSchema = z.enum(['brave', 'searxng']);
export type WebSearchProvider = z.infer<typeof WebSearchProviderSchema>;

/** The id the Brave key is stored under in the secrets file (beside the provider keys, scrubbed like them). */
export const BRAVE_SEARCH_KEY_ID = 'web-search:brave';

const HttpUrlSchema = z
  .string()
  .max(2000)
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'A SearXNG URL must be http or https.');

/** `GET /api/web-search`: what is configured, `hasBraveKey` instead of the key. */
export const WebSearchSettingsSchema = z.object({
  provider: WebSearchProviderSchema.nullable(),
  searxngUrl: HttpUrlSchema.nullable(),
  hasBraveKey: z.boolean(),
});
export type WebSearchSettings = z.infer<typeof WebSearchSettingsSchema>;

/** `PUT /api/web-search`: choose the service; `braveKey` '' removes the key, absent keeps it. */
export const WebSearchUpdateSchema = z.object({
  provider: WebSearchProviderSchema.nullable(),
  searxngUrl: HttpUrlSchema.nullable().optional(),
  braveKey: z.string().max(1000).optional(),
});
export type WebSearchUpdate = z.infer<typeof WebSearchUpdateSchema>;
