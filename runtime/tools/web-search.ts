import { z } from 'zod';
import type { WebSearchProvider } from '../../protocol/index.ts';
import { fetchPublic, type PublicFetchOptions } from '../materials/index.ts';
import { parseSearchInput, SEARCH_MAX_BYTES } from './search-input.ts';
import { WeftError } from '../../protocol/index.ts';

/** The public Brave Search API; a test points `braveUrl` at a scripted server on 127.0.0.1. */
export const BRAVE_SEARCH_URL = 'https://api.search.brave.com';

/** The configured service, read at each call so a change in Settings applies to the next search. */
export interface ConfiguredWebSearch {
  provider: WebSearchProvider | null;
  searxngUrl: string | null;
  braveKey: string | null;
}

export interface WebSearchOptions extends Pick<PublicFetchOptions, 'allowLoopbackTargets' | 'timeoutMs' | 'resolve'> {
  configured: () => Promise<ConfiguredWebSearch>;
  braveUrl?: string;
}

const ResultSchema = z.object({
  title: z.string().optional(),
  url: z.string(),
  description: z.string().optional(),
  content: z.string().optional(),
});
const BraveAnswerSchema = z.object({ web: z.object({ results: z.array(z.unknown()) }).optional() });
const SearxngAnswerSchema = z.object({ results: z.array(z.unknown()) });

/** Extracts come with highlight markup (`<strong>`) and entities; the model reads plain text. */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function lines(items: unknown[], rows: number, query: string): string {
  const results = items.flatMap((item) => {
    const result = ResultSchema.safeParse(item);
    return result.success && /^https?:\/\//i.test(result.data.url) ? [result.data] : [];
  });
  if (results.length === 0) return `No web results for “${query}”.`;
  return results
    .slice(0, rows)
    .map((result, index) => {
      const extract = plain(result.description ?? result.content ?? '').slice(0, 300);
      return `${index + 1}. ${plain(result.title ?? '') || result.url} — ${result.url}${extract ? `\n   ${extract}` : ''}`;
    })
    .join('\n');
}

function parsed<T>(schema: z.ZodType<T>, body: Buffer, service: string): T {
  try {
    return schema.parse(JSON.parse(body.toString('utf8')));
  } catch {
    throw new WeftError('tool-bad-answer', `The ${service} did not answer with search results.`, 502);
  }
}

/**
 * C35 `web_search`: keywords → web results from the service set in Settings (Brave with its key, or a SearXNG
 * instance's JSON API), fetched under the URL snapshot address policy. Refused with `web-search-not-configured`
 * when no service is set up; the key goes only to Brave's origin, in its header, and is never in the text.
 */
export async function webSearch(input: unknown, options: WebSearchOptions): Promise<string> {
  const { query, rows } = parseSearchInput('web_search', input);
  const configured = await options.configured();
  const policy = {
    allowLoopbackTargets: options.allowLoopbackTargets,
    timeoutMs: options.timeoutMs,
    resolve: options.resolve,
    maxBytes: SEARCH_MAX_BYTES,
    accept: 'application/json',
    noun: 'search service',
  };
  if (configured.provider === 'brave' && configured.braveKey) {
    const url = new URL('/res/v1/web/search', options.braveUrl ?? BRAVE_SEARCH_URL);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(rows));
    const response = await fetchPublic(url.toString(), {
      ...policy,
      headers: { 'x-subscription-token': configured.braveKey },
    });
    return lines(parsed(BraveAnswerSchema, response.body, 'Brave search').web?.results ?? [], rows, query);
  }
  if (configured.provider === 'searxng' && configured.searxngUrl) {
    const url = new URL(
      'search',
      configured.searxngUrl.endsWith('/') ? configured.searxngUrl : `${configured.searxngUrl}/`,
    );
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    const response = await fetchPublic(url.toString(), policy);
    return lines(parsed(SearxngAnswerSchema, response.body, 'SearXNG instance').results, rows, query);
  }
  throw new WeftError(
    'web-search-not-configured',
    'Web search is not set up: choose Brave (with its key) or a SearXNG URL in Settings.',
    409,
  );
}
