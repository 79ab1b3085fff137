/** Types for `find-chromium.mjs` (plain JavaScript so `scripts/test.mjs` can run it without a TypeScript loader). */
export function findChromium(options?: {
  installIfRoot?: boolean;
}): { path: string; message?: undefined } | { path: null; message: string };
