import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One paper as the Semantic Scholar graph API's search lists it (the fields Weft asks for). */
export interface ScriptedPaper {
  paperId: string;
  title: string;
  authors: { authorId?: string; name: string }[];
  year?: number | null;
  venue?: string;
  externalIds?: Record<string, string>;
  url?: string;
}

export interface ScriptedSemanticScholar {
  /** e.g. `http://127.0.0.1:PORT` — pass as `semanticScholarUrl`. */
  url: string;
  /** Every `GET /graph/v1/paper/search` received, in order. */
  queries: { query: string | null; limit: string | null; fields: string | null }[];
  papers: ScriptedPaper[];
  /** Answer with this HTTP error instead. */
  status: number | null;
  /** Answer with this body instead (e.g. JSON that is not a search answer). */
  body: string | null;
  close(): Promise<void>;
}

/** A scripted Semantic Scholar `/graph/v1/paper/search` on 127.0.0.1, shaped like the public API's answer. */
export async function startScriptedSemanticScholar(papers: ScriptedPaper[] = []): Promise<ScriptedSemanticScholar> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/graph/v1/paper/search') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    scholar.queries.push({
      query: url.searchParams.get('query'),
      limit: url.searchParams.get('limit'),
      fields: url.searchParams.get('fields'),
    });
    if (scholar.status) {
      response.writeHead(scholar.status, { 'content-type': 'application/json' }).end('{"message":"Too Many Requests"}');
      return;
    }
    if (scholar.body !== null) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(scholar.body);
      return;
    }
    const data = scholar.papers.slice(0, Number(url.searchParams.get('limit') ?? 10));
    // The real API leaves `data` out when nothing matched.
    const answer = data.length > 0 ? { total: data.length, offset: 0, data } : { total: 0, offset: 0 };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const scholar: ScriptedSemanticScholar = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries: [],
    papers,
    status: null,
    body: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return scholar;
}
