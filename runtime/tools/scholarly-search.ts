import { z } from 'zod';
import { fetchSearchJson } from './fetch-search-json.ts';
import { parseSearchInput } from './search-input.ts';
import type { SearchServiceOptions } from './search-service-options.ts';

/** The public Crossref REST API; a test points `crossrefUrl` at a scripted server on 127.0.0.1. */
export const CROSSREF_URL = 'https://api.crossref.org';
/** Kept for callers that name the Crossref options: every search tool shares one set of endpoints. */
export type ScholarlySearchOptions = SearchServiceOptions;

const WorkSchema = z.object({
  DOI: z.string().optional(),
  title: z.array(z.string()).optional(),
  author: z
    .array(z.object({ given: z.string().optional(), family: z.string().optional(), name: z.string().optional() }))
    .optional(),
  issued: z.object({ 'date-parts': z.array(z.array(z.number().nullable())).optional() }).optional(),
  'container-title': z.array(z.string()).optional(),
});
const AnswerSchema = z.object({ message: z.object({ items: z.array(z.unknown()) }) });

function authors(work: z.infer<typeof WorkSchema>): string {
  const names = (work.author ?? []).map(
    (author) => author.name ?? [author.given, author.family].filter(Boolean).join(' '),
  );
  if (names.length === 0) return 'unknown authors';
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} et al.` : names.join(', ');
}

function line(position: number, work: z.infer<typeof WorkSchema>): string {
  const title = work.title?.[0]?.replace(/\s+/g, ' ').trim() || '(untitled)';
  const year = work.issued?.['date-parts']?.[0]?.[0];
  const venue = work['container-title']?.[0];
  const doi = work.DOI ? ` https://doi.org/${work.DOI}` : '';
  return `${position}. ${title} — ${authors(work)}${year ? ` (${year})` : ''}.${venue ? ` ${venue}.` : ''}${doi}`;
}

/**
 * C35 `scholarly_search`: keywords → Crossref works, one line each. The address is fetched under the same
 * policy as URL snapshots (a Crossref URL set to a private address is refused with `url-refused`).
 */
export async function scholarlySearch(input: unknown, options: ScholarlySearchOptions = {}): Promise<string> {
  const { query, rows } = parseSearchInput('scholarly_search', input);
  const url = new URL('/works', options.crossrefUrl ?? CROSSREF_URL);
  url.searchParams.set('query', query);
  url.searchParams.set('rows', String(rows));
  url.searchParams.set('select', 'DOI,title,author,issued,container-title');
  const answer = await fetchSearchJson(url, AnswerSchema, options, 'Crossref works');
  const works = answer.message.items.flatMap((item) => {
    const work = WorkSchema.safeParse(item);
    return work.success ? [work.data] : [];
  });
  if (works.length === 0) return `No works found for “${query}”.`;
  return works.map((work, index) => line(index + 1, work)).join('\n');
}
