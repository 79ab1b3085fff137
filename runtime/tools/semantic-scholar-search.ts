import { z } from 'zod';
import { fetchSearchJson } from './fetch-search-json.ts';
import { authorList, parseSearchInput } from './search-input.ts';
import type { SearchServiceOptions } from './search-service-options.ts';

/** The public Semantic Scholar graph API; a test points `semanticScholarUrl` at a scripted server on 127.0.0.1. */
export const SEMANTIC_SCHOLAR_URL = 'https://api.semanticscholar.org';

const PaperSchema = z.object({
  paperId: z.string().optional(),
  title: z.string().nullable().optional(),
  authors: z.array(z.object({ name: z.string().nullable().optional() })).optional(),
  year: z.number().int().nullable().optional(),
  venue: z.string().nullable().optional(),
  externalIds: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .nullable()
    .optional(),
  url: z.string().nullable().optional(),
});
type Paper = z.infer<typeof PaperSchema>;
// `total` is always there; a search with no hits leaves `data` out.
const AnswerSchema = z.object({ total: z.number(), data: z.array(z.unknown()).optional() });

/** The steadiest link a paper has: its DOI, else its arXiv id, else its Semantic Scholar page. */
function link(paper: Paper): string {
  const ids = paper.externalIds ?? {};
  if (ids.DOI) return `https://doi.org/${ids.DOI}`;
  if (ids.ArXiv) return `https://arxiv.org/abs/${ids.ArXiv}`;
  if (paper.url?.startsWith('https://')) return paper.url;
  return paper.paperId ? `https://www.semanticscholar.org/paper/${paper.paperId}` : '';
}

function line(position: number, paper: Paper): string {
  const title = paper.title?.replace(/\s+/g, ' ').trim() || '(untitled)';
  const names = (paper.authors ?? []).map((author) => author.name ?? '');
  const venue = paper.venue?.trim();
  const address = link(paper);
  return `${position}. ${title} — ${authorList(names)}${paper.year ? ` (${paper.year})` : ''}.${venue ? ` ${venue}.` : ''}${address ? ` ${address}` : ''}`;
}

/**
 * C35 `semantic_scholar_search`: keywords → papers (graph API `/graph/v1/paper/search`), one line each, fetched
 * under the URL snapshot address policy (`url-refused` for a private or local address).
 */
export async function semanticScholarSearch(input: unknown, options: SearchServiceOptions = {}): Promise<string> {
  const { query, rows } = parseSearchInput('semantic_scholar_search', input);
  const url = new URL('/graph/v1/paper/search', options.semanticScholarUrl ?? SEMANTIC_SCHOLAR_URL);
  url.searchParams.set('query', query);
  url.searchParams.set('limit', String(rows));
  url.searchParams.set('fields', 'title,authors,year,venue,externalIds,url');
  const answer = await fetchSearchJson(url, AnswerSchema, options, 'Semantic Scholar papers');
  const papers = (answer.data ?? []).flatMap((item) => {
    const paper = PaperSchema.safeParse(item);
    return paper.success ? [paper.data] : [];
  });
  if (papers.length === 0) return `No papers found for “${query}”.`;
  return papers
    .slice(0, rows)
    .map((paper, index) => line(index + 1, paper))
    .join('\n');
}
