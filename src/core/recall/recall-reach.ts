import type { RecallReach } from '../../../protocol/index.ts';

/** Candidates the decision model reads for relevance at each reach; full reads every in-scope candidate. */
export const REACH_CANDIDATES: Record<Exclude<RecallReach, 'full'>, number> = { light: 40, deep: 200 };

/** Candidates per decision request (one request ranks up to this many excerpts against each other). */
export const CANDIDATES_PER_REQUEST = 40;

/** Characters of each candidate the decision model is shown: the only recalled text that leaves the machine. */
export const JUDGE_OPENING_CHARS = 700;

/** How many of `available` in-scope candidates the judge reads at `reach`; none without a judge. */
export function reachCount(reach: RecallReach, available: number, judged: boolean): number {
  if (!judged) return 0;
  return reach === 'full' ? available : Math.min(available, REACH_CANDIDATES[reach]);
}

/** The decision requests a reach costs. */
export function reachRequests(candidates: number): number {
  return Math.ceil(candidates / CANDIDATES_PER_REQUEST);
}
