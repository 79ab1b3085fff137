/**
 * Retries of one benchmark model call: a rate limit (429), a server error (5xx) or a network failure is retried
 * with exponential backoff, honouring the provider's Retry-After (seconds or an HTTP date), up to a bounded number
 * of attempts. Every retry is recorded, and the record goes into the trace of the answer that finally arrived.
 * Any other failure (a bad key, an unknown model, a context too long) is returned at once: retrying cannot help.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** The wait before the first retry when the provider names none; doubled for each later retry. */
  baseDelayMs: number;
  /** No wait is longer, whatever Retry-After asks (a run must not stall for an hour on one header). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseDelayMs: 1_000, maxDelayMs: 60_000 };

/** One failed attempt that was retried, as the trace records it. */
export interface RetryRecord {
  /** 1 = the first attempt failed. */
  attempt: number;
  code: string;
  /** The HTTP status of the failed attempt (null for a network failure). */
  status: number | null;
  /** The Retry-After header as sent (null when absent). */
  retryAfter: string | null;
  /** How long the benchmark waited before the next attempt. */
  waitMs: number;
}

/** What one attempt of a call gives: the answer, or a failure with what the provider said about it. */
export type AttemptResult<Answer> =
  | { ok: true; answer: Answer }
  | { ok: false; code: string; message: string; status: number | null; retryAfter: string | null };

export interface RetryEnvironment {
  policy?: RetryPolicy;
  sleep?: (milliseconds: number) => Promise<void>;
  now?: () => number;
}

/** Retry-After in milliseconds: whole seconds, or an HTTP date relative to `now`; null when unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** 429, any 5xx, or a failure to reach the provider at all. */
export function isRetryable(code: string, status: number | null): boolean {
  return code === 'rate-limit' || code === 'network' || status === 429 || (status !== null && status >= 500);
}

export function backoffMs(policy: RetryPolicy, retry: number, retryAfter: string | null, now: number): number {
  const asked = retryAfterMs(retryAfter, now);
  return Math.min(policy.maxDelayMs, asked ?? policy.baseDelayMs * 2 ** (retry - 1));
}

const wait = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * Calls `attempt` until it answers, fails for a reason a retry cannot help, or has been tried `policy.attempts`
 * times. Returns the last result and every retry made on the way.
 */
export async function withRetry<Answer>(
  attempt: () => Promise<AttemptResult<Answer>>,
  environment: RetryEnvironment = {},
): Promise<{ result: AttemptResult<Answer>; retries: RetryRecord[] }> {
  const policy = environment.policy ?? DEFAULT_RETRY_POLICY;
  const sleep = environment.sleep ?? wait;
  const now = environment.now ?? Date.now;
  const retries: RetryRecord[] = [];
  for (let number = 1; ; number += 1) {
    const result = await attempt();
    if (result.ok || number >= policy.attempts || !isRetryable(result.code, result.status)) return { result, retries };
    const waitMs = backoffMs(policy, number, result.retryAfter, now());
    retries.push({ attempt: number, code: result.code, status: result.status, retryAfter: result.retryAfter, waitMs });
    await sleep(waitMs);
  }
}
