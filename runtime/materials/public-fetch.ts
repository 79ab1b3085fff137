import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isAllowedAddress } from './address-policy.ts';
import { WeftError } from '../../protocol/index.ts';

/**
 * One GET of a public http(s) address under the address policy: every resolved address checked, the socket
 * pinned to the checked address, redirects followed by hand with the same checks, size and time limits.
 * URL snapshots (C22) and the chat model's tools (C35) fetch through it, so both obey the same rules.
 */
export interface PublicFetchOptions {
  /** Tests only: let a 127.0.0.1 address be fetched. Private networks stay refused regardless. */
  allowLoopbackTargets?: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  /** The `accept` header sent. */
  accept?: string;
  /**
   * More request headers (e.g. a search service's key), sent only to the first address's origin: a redirect to
   * another origin goes without them, so a key never follows a redirect away.
   */
  headers?: Record<string, string>;
  /** What the caller fetches, for messages: "page" for a snapshot, "search result" for a tool. */
  noun?: string;
}

export interface PublicResponse {
  finalUrl: URL;
  contentType: string;
  body: Buffer;
}

export const PUBLIC_FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const PUBLIC_FETCH_TIMEOUT_MS = 10_000;

async function defaultResolve(hostname: string): Promise<{ address: string; family: number }[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}

/** Resolve a host and require every address to pass the policy; return the one to connect to. */
async function checkedAddress(
  url: URL,
  options: PublicFetchOptions,
  signal: AbortSignal,
): Promise<{ address: string; family: number }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  else {
    // getaddrinfo cannot be cancelled, so the time limit races it (a stuck resolver takes far longer).
    const timedOut = new Promise<never>((_resolve, reject) => {
      signal.throwIfAborted();
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
    try {
      addresses = await Promise.race([(options.resolve ?? defaultResolve)(hostname), timedOut]);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new WeftError('fetch-failed', `Could not resolve "${hostname}".`, 502);
    }
  }
  if (addresses.length === 0) throw new WeftError('fetch-failed', `"${hostname}" has no address.`, 502);
  for (const { address } of addresses) {
    if (!isAllowedAddress(address, options.allowLoopbackTargets ?? false)) {
      throw new WeftError(
        'url-refused',
        `"${hostname}" points to a private or local address (${address}); Weft only snapshots public pages.`,
        400,
      );
    }
  }
  return addresses[0]!;
}

export function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WeftError('url-refused', 'That is not a valid URL.', 400);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WeftError('url-refused', `Only http and https pages can be snapshotted, not ${url.protocol}.`, 400);
  if (url.username || url.password)
    throw new WeftError('url-refused', 'URLs with a user name or password are refused.', 400);
  return url;
}

interface FetchedPage {
  status: number;
  location: string | undefined;
  contentType: string;
  body: Buffer;
}

function fetchOnce(
  url: URL,
  pinned: { address: string; family: number },
  signal: AbortSignal,
  maxBytes: number,
  accept: string,
  extraHeaders: Record<string, string>,
): Promise<FetchedPage> {
  // Connect to the address we checked, never to a second DNS answer (no rebinding between check and use).
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<FetchedPage>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        lookup,
        signal,
        headers: {
          ...extraHeaders,
          'user-agent': 'Weft/0.1 (page snapshot)',
          accept,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400) {
          response.resume();
          resolve({ status, location, contentType: '', body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (declared > maxBytes) {
          response.destroy();
          reject(
            new WeftError('fetch-too-large', `The page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`, 413),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy();
            reject(
              new WeftError(
                'fetch-too-large',
                `The page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`,
                413,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status,
            location,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

const PAGE_ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1';

/** GET `raw` under the address policy; a 2xx answer's bytes, or a coded `WeftError`. */
export async function fetchPublic(raw: string, options: PublicFetchOptions = {}): Promise<PublicResponse> {
  const maxBytes = options.maxBytes ?? PUBLIC_FETCH_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? PUBLIC_FETCH_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? 5;
  const noun = options.noun ?? 'page';
  const signal = AbortSignal.timeout(timeoutMs);
  let url = parseTarget(raw);
  const origin = url.origin;
  try {
    for (let hop = 0; ; hop++) {
      const pinned = await checkedAddress(url, options, signal);
      const headers = url.origin === origin ? (options.headers ?? {}) : {};
      const page = await fetchOnce(url, pinned, signal, maxBytes, options.accept ?? PAGE_ACCEPT, headers);
      if (page.status >= 300 && page.status < 400 && page.location) {
        if (hop >= maxRedirects)
          throw new WeftError('fetch-failed', `Too many redirects (more than ${maxRedirects}).`, 502);
        url = parseTarget(new URL(page.location, url).toString());
        continue;
      }
      if (page.status < 200 || page.status >= 300)
        throw new WeftError('fetch-failed', `The ${noun} answered HTTP ${page.status}.`, 502);
      return { finalUrl: url, contentType: page.contentType, body: page.body };
    }
  } catch (error) {
    if (error instanceof WeftError) throw error;
    if (signal.aborted)
      throw new WeftError(
        'fetch-timeout',
        `The ${noun} did not load within ${Math.round(timeoutMs / 1000)} seconds.`,
        504,
      );
    const code = (error as { code?: string }).code;
    throw new WeftError('fetch-failed', `Could not load the ${noun}${code ? ` (${code})` : ''}.`, 502);
  }
}
