/** Types for `find-postgres.mjs` (plain JavaScript so `scripts/test.mjs` can run it without a TypeScript loader). */
export function findPostgres(options?: {
  installIfRoot?: boolean;
}): { bin: string; message?: undefined } | { bin: null; message: string };
