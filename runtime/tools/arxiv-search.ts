import { DOMParser } from 'linkedom';
import { fetchPublic } from '../materials/index.ts';
import { authorList, parseSearchInput, SEARCH_MAX_BYTES } from './search-input.ts';
import type { SearchServiceOptions } from './search-service-options.ts';
import { WeftError } from '../../protocol/index.ts';

/** The public arXiv API (Atom feeds); a test points `arxivUrl` at a scripted server on 127.0.0.1. */
export const ARXIV_URL = 'https://export.arxiv.org';

interface Preprint {
  title: string;
  authors: string[];
  year: string | null;
  link: string | null;
}

const textOf = (element: Element | undefined) => element?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** The feed's root element; linkedom's own types are loose, its elements follow the standard DOM `Element`. */
function feedRoot(xml: string): Element | null {
  try {
    return new DOMParser().parseFromString(xml, 'text/xml').documentElement as unknown as Element;
  } catch {
    return null;
  }
}

/** The entries of an arXiv Atom feed; anything that is not an Atom feed is not an arXiv answer. */
function preprints(xml: string): Preprint[] {
  const root = feedRoot(xml);
  if (root?.localName !== 'feed')
    throw new WeftError('tool-bad-answer', 'The search service did not answer with an arXiv Atom feed.', 502);
  return [...root.getElementsByTagName('entry')].map((entry) => {
    const id = textOf(entry.getElementsByTagName('id')[0]);
    return {
      title: textOf(entry.getElementsByTagName('title')[0]) || '(untitled)',
      authors: [...entry.getElementsByTagName('author')].map((author) =>
        textOf(author.getElementsByTagName('name')[0]),
      ),
      year: /^\d{4}/.exec(textOf(entry.getElementsByTagName('published')[0]))?.[0] ?? null,
      // arXiv ids are abstract-page links; anything else (an error entry) carries no link worth showing.
      link: /^https?:\/\/arxiv\.org\/abs\//.test(id) ? id.replace(/^http:/, 'https:') : null,
    };
  });
}

/**
 * C35 `arxiv_search`: keywords → arXiv preprints (Atom API `/api/query`), one line each, fetched under the URL
 * snapshot address policy (`url-refused` for a private or local address).
 */
export async function arxivSearch(input: unknown, options: SearchServiceOptions = {}): Promise<string> {
  const { query, rows } = parseSearchInput('arxiv_search', input);
  const url = new URL('/api/query', options.arxivUrl ?? ARXIV_URL);
  url.searchParams.set('search_query', `all:${query}`);
  url.searchParams.set('start', '0');
  url.searchParams.set('max_results', String(rows));
  const response = await fetchPublic(url.toString(), {
    ...options,
    maxBytes: SEARCH_MAX_BYTES,
    accept: 'application/atom+xml',
    noun: 'search service',
  });
  const found = preprints(response.body.toString('utf8')).filter((preprint) => preprint.link !== null);
  if (found.length === 0) return `No preprints found for “${query}”.`;
  return found
    .slice(0, rows)
    .map(
      (preprint, index) =>
        `${index + 1}. ${preprint.title} — ${authorList(preprint.authors)}${preprint.year ? ` (${preprint.year})` : ''}. ${preprint.link}`,
    )
    .join('\n');
}
