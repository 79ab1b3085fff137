import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One preprint as the arXiv Atom API lists it (the fields Weft's arXiv search reads). */
export interface ScriptedPreprint {
  /** e.g. `1706.03762v7`, listed as `http://arxiv.org/abs/<id>` like the real feed. */
  id: string;
  title: string;
  authors: string[];
  published: string;
}

export interface ScriptedArxiv {
  /** e.g. `http://127.0.0.1:PORT` — pass as `arxivUrl`. */
  url: string;
  /** Every `GET /api/query` received, in order. */
  queries: { searchQuery: string | null; maxResults: string | null }[];
  preprints: ScriptedPreprint[];
  /** Answer with this HTTP error instead. */
  status: number | null;
  /** Answer with this body instead of a feed (e.g. an HTML error page). */
  body: string | null;
  close(): Promise<void>;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function feed(preprints: ScriptedPreprint[]): string {
  const entries = preprints.map(
    (preprint) => `<entry>
    <id>http://arxiv.org/abs/${preprint.id}</id>
    <published>${preprint.published}</published>
    <title>${escape(preprint.title)}</title>
    <summary>An abstract.</summary>
    ${preprint.authors.map((name) => `<author><name>${escape(name)}</name></author>`).join('\n    ')}
  </entry>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <title type="html">ArXiv Query</title>
  <opensearch:totalResults>${preprints.length}</opensearch:totalResults>
  ${entries.join('\n  ')}
</feed>`;
}

/** A scripted arXiv `/api/query` endpoint on 127.0.0.1, answering Atom like the public API. */
export async function startScriptedArxiv(preprints: ScriptedPreprint[] = []): Promise<ScriptedArxiv> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/api/query') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    arxiv.queries.push({
      searchQuery: url.searchParams.get('search_query'),
      maxResults: url.searchParams.get('max_results'),
    });
    if (arxiv.status) {
      response.writeHead(arxiv.status, { 'content-type': 'text/plain' }).end('error');
      return;
    }
    if (arxiv.body !== null) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(arxiv.body);
      return;
    }
    const count = Number(url.searchParams.get('max_results') ?? 10);
    response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed(arxiv.preprints.slice(0, count)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const arxiv: ScriptedArxiv = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries: [],
    preprints,
    status: null,
    body: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return arxiv;
}
