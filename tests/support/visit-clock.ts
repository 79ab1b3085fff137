import { VISIT_WINDOW_MS } from '../../runtime/memory/index.ts';

/**
 * A server clock a test moves past the memory visit window (`AdditionsWindow`), so that the next exchange on a
 * canvas starts a new visit as the server counts it. Pass `now` to `startTestServer`.
 */
export function visitClock(start = Date.now()): { now: () => number; nextVisit(): void } {
  let at = start;
  return {
    now: () => at,
    nextVisit() {
      at += VISIT_WINDOW_MS + 1;
    },
  };
}
