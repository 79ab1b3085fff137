import { canonicalJson } from '../../core/index.ts';

/**
 * C9: SHA-256 (lowercase hex) over RFC 8785 canonical JSON of `value`, the same digest as core's `hashCanonical`,
 * by the browser's native WebCrypto: its digest runs off the main thread, so the will-send preview of a
 * 2,000-message request paints without the JavaScript SHA-256 (≈ 18 ms of a panel open). Only the canonical text and
 * its UTF-8 bytes are made here.
 */
export async function hashCanonicalNative(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(value));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
