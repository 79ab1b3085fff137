// runtime/materials: materials that need Node — a web page snapshot and PDF text.
export { snapshotUrl, URL_MAX_BYTES, URL_TIMEOUT_MS } from './url-snapshot.ts';
export type { UrlSnapshotOptions } from './url-snapshot.ts';
export { classifyAddress, isAllowedAddress } from './address-policy.ts';
export type { AddressClass } from './address-policy.ts';
export { extractReadableText, normaliseWhitespace } from './readable-text.ts';
export { extractPdfText, PDF_MAX_PAGES, PDF_TIMEOUT_MS } from './pdf-text.ts';
export type { PdfTextOptions } from './pdf-text.ts';
export { fetchPublic, PUBLIC_FETCH_MAX_BYTES, PUBLIC_FETCH_TIMEOUT_MS } from './public-fetch.ts';
export type { PublicFetchOptions, PublicResponse } from './public-fetch.ts';
