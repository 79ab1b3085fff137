import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One web result, answered in Brave's (`description`) or SearXNG's (`content`) shape. */
export interface ScriptedWebResult {
  title: string;
  url: string;
  extract: string;
}

export interface ScriptedWebSearch {
  /** e.g. `http://127.0.0.1:PORT` — pass as the server's `braveSearchUrl`, or (with `/searxng`) as a SearXNG URL. */
  url: string;
  /** Every search received: which API, the query, and the Brave key header as sent. */
  queries: { api: 'brave' | 'searxng'; query: string | null; token: string | null }[];
  results: ScriptedWebResult[];
  close(): Promise<void>;
}

/**
 * Brave's `GET /res/v1/web/search` (refusing a request without `x-subscription-token`) and a SearXNG
 * instance's `GET /searxng/search?format=json` on 127.0.0.1, shaped like the real answers.
 */
export async function startScriptedWebSearch(results: ScriptedWebResult[] = []): Promise<ScriptedWebSearch> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const token = request.headers['x-subscription-token'];
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/res/v1/web/search') {
      search.queries.push({
        api: 'brave',
        query: url.searchParams.get('q'),
        token: typeof token === 'string' ? token : null,
      });
      if (!token) return json(422, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } });
      const count = Number(url.searchParams.get('count') ?? 20);
      const items = search.results
        .slice(0, count)
        .map((result) => ({ title: result.title, url: result.url, description: result.extract }));
      return json(200, {
        type: 'search',
        query: { original: url.searchParams.get('q') },
        web: { type: 'search', results: items },
      });
    }
    if (url.pathname === '/searxng/search' && url.searchParams.get('format') === 'json') {
      search.queries.push({
        api: 'searxng',
        query: url.searchParams.get('q'),
        token: typeof token === 'string' ? token : null,
      });
      const items = search.results.map((result) => ({
        title: result.title,
        url: result.url,
        content: result.extract,
        engine: 'scripted',
      }));
      return json(200, { query: url.searchParams.get('q'), number_of_results: items.length, results: items });
    }
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const search: ScriptedWebSearch = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries: [],
    results,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return search;
}
