import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One work as the Crossref REST API lists it (only the fields Weft's scholarly search selects). */
export interface ScriptedWork {
  DOI: string;
  title: string[];
  author?: { given?: string; family?: string }[];
  issued?: { 'date-parts': number[][] };
  'container-title'?: string[];
}

export interface ScriptedCrossref {
  /** e.g. `http://127.0.0.1:PORT` — pass as `crossrefUrl`. */
  url: string;
  /** Every `GET /works` query received, in order (`query` and `rows` parameters). */
  queries: { query: string | null; rows: string | null }[];
  /** The works every search answers with; `status` answers with that HTTP error instead. */
  works: ScriptedWork[];
  status: number | null;
  close(): Promise<void>;
}

/** A scripted Crossref `/works` endpoint on 127.0.0.1, shaped like the public API's answer. */
export async function startScriptedCrossref(works: ScriptedWork[] = []): Promise<ScriptedCrossref> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/works') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"error"}');
      return;
    }
    crossref.queries.push({ query: url.searchParams.get('query'), rows: url.searchParams.get('rows') });
    if (crossref.status) {
      response.writeHead(crossref.status, { 'content-type': 'application/json' }).end('{"status":"error"}');
      return;
    }
    const rows = Number(url.searchParams.get('rows') ?? 20);
    const items = crossref.works.slice(0, rows);
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        status: 'ok',
        'message-type': 'work-list',
        'message-version': '1.0.0',
        message: { 'total-results': items.length, items },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const crossref: ScriptedCrossref = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries: [],
    works,
    status: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return crossref;
}
