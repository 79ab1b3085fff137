import type { UrlMaterialResponse } from '../../protocol/index.ts';
import {
  fetchPublic,
  PUBLIC_FETCH_MAX_BYTES,
  PUBLIC_FETCH_TIMEOUT_MS,
  type PublicFetchOptions,
} from './public-fetch.ts';
import { extractReadableText, normaliseWhitespace } from './readable-text.ts';
import { WeftError } from '../../protocol/index.ts';

export interface UrlSnapshotOptions extends Pick<
  PublicFetchOptions,
  'allowLoopbackTargets' | 'maxBytes' | 'timeoutMs' | 'maxRedirects' | 'resolve'
> {
  now?: () => number;
}

export const URL_MAX_BYTES = PUBLIC_FETCH_MAX_BYTES;
export const URL_TIMEOUT_MS = PUBLIC_FETCH_TIMEOUT_MS;

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([^;]+)/i.exec(contentType)?.[1]?.trim().replace(/"/g, '');
  try {
    return new TextDecoder(charset || 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * Snapshot a public web page as readable text (http/https only; every resolved address checked;
 * redirects followed by hand with the same checks; size and time limits: `fetchPublic`).
 */
export async function snapshotUrl(raw: string, options: UrlSnapshotOptions = {}): Promise<UrlMaterialResponse> {
  const now = options.now ?? Date.now;
  const page = await fetchPublic(raw, options);
  const url = page.finalUrl;
  const mediaType = page.contentType.split(';')[0]!.trim().toLowerCase();
  const text = decode(page.body, page.contentType);
  const fetchedAt = now();
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml' || mediaType === '') {
    const readable = extractReadableText(text, url.toString());
    return {
      url: raw,
      finalUrl: url.toString(),
      fetchedAt,
      title: readable.title || url.hostname,
      text: readable.text,
    };
  }
  if (mediaType.startsWith('text/')) {
    return {
      url: raw,
      finalUrl: url.toString(),
      fetchedAt,
      title: url.pathname.split('/').pop() || url.hostname,
      text: normaliseWhitespace(text),
    };
  }
  throw new WeftError(
    'unsupported-media-type',
    `The page is ${mediaType}, not a web page or text; download it and add it as a file instead.`,
    415,
  );
}
