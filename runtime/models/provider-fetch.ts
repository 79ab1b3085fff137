import { getMaxListeners, setMaxListeners } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Connections to a provider are kept and reused (a model set opens eight at a time to one host), but closed after 4 s
 * unused, as fetch does: servers that drop idle connections unannounced (5 s in uvicorn) would otherwise reset a
 * request sent on one just as it closes.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4_000 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4_000 }),
};

/** As undici's fetch: a connection not made in 10 s fails, and one silent this long (before or within the body). */
const CONNECT_MS = 10_000;
const IDLE_MS = 300_000;
/** As fetch: a model set's answers share one stop signal, so it carries more listeners than Node's default 10. */
const SIGNAL_LISTENERS = 1_500;

/** Statuses whose response has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function timedOut(what: string): Error {
  return Object.assign(new Error(`${what} timed out`), { code: 'ETIMEDOUT' });
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}

/** A network failure as fetch reports one, so the AI SDK wraps it the same way ("Cannot connect to API"). */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function headerList(headers: HeadersInit | undefined): Record<string, string> {
  const list: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    list[name] = value;
  });
  return list;
}

function responseHeaders(message: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The body as sent, decoded as fetch decodes it (providers may compress); a failure reaches the decoded side. */
function decodedBody(message: http.IncomingMessage): Readable {
  const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return message;
  pipeline(message, decoder, () => undefined);
  return decoder;
}

/**
 * The one HTTP client of the model providers (every AI SDK provider gets it as its `fetch`): a request on
 * `node:http(s)` with kept connections, its response as a web `Response` streamed as it arrives. It costs about a
 * third less CPU per answer than the built-in fetch (`bench:compare`, a set's 32 answers). Redirects are not followed:
 * a provider does not redirect its API, and a key must never follow one to another origin — a 3xx reaches the SDK
 * as the error it is.
 */
export function providerFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    const agent = url.protocol === 'https:' ? agents['https:'] : url.protocol === 'http:' ? agents['http:'] : null;
    if (!agent) return reject(fetchFailed(new Error(`Unsupported protocol ${url.protocol}`)));
    if (signal?.aborted) return reject(abortError(signal));
    const send = url.protocol === 'https:' ? https.request : http.request;
    const request = send(url, { method: init.method ?? 'GET', headers: headerList(init.headers), agent });
    let body: Readable | null = null;
    const onAbort = () => {
      const reason = abortError(signal!);
      request.destroy(reason);
      body?.destroy(reason);
      reject(reason);
    };
    const release = () => signal?.removeEventListener('abort', onAbort);
    if (signal) {
      if (getMaxListeners(signal) < SIGNAL_LISTENERS) setMaxListeners(SIGNAL_LISTENERS, signal);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => request.destroy(timedOut('connect')), CONNECT_MS);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    request.setTimeout(IDLE_MS, () => request.destroy(timedOut('response')));
    request.on('error', (error) => {
      release();
      reject(signal?.aborted ? abortError(signal) : fetchFailed(error));
    });
    request.on('response', (message) => {
      const status = message.statusCode ?? 500;
      if (NO_BODY.has(status)) message.resume();
      else body = decodedBody(message);
      message.on('close', release);
      try {
        resolve(
          new Response(body ? (Readable.toWeb(body) as ReadableStream<Uint8Array>) : null, {
            status,
            statusText: message.statusMessage ?? '',
            headers: responseHeaders(message),
          }),
        );
      } catch (error) {
        // A status a `Response` cannot carry (below 200, above 599): no answer, and never a crash of the server.
        message.destroy();
        release();
        reject(fetchFailed(error));
      }
    });
    const payload = init.body;
    if (payload === undefined || payload === null) request.end();
    else if (typeof payload === 'string' || payload instanceof Uint8Array) request.end(payload);
    else {
      request.destroy();
      reject(fetchFailed(new Error('A provider request body must be text or bytes.')));
    }
  });
}
