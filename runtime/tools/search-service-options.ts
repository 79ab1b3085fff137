import type { PublicFetchOptions } from '../materials/index.ts';

/**
 * Where the search tools reach out to, and the address policy they obey. Each URL defaults to the public
 * service; tests point them at scripted servers on 127.0.0.1 (with the tests-only loopback switch).
 */
export interface SearchServiceOptions extends Pick<
  PublicFetchOptions,
  'allowLoopbackTargets' | 'timeoutMs' | 'resolve'
> {
  crossrefUrl?: string;
  arxivUrl?: string;
  semanticScholarUrl?: string;
}
