import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBenchModel } from './bench-model.ts';
import { backoffMs, DEFAULT_RETRY_POLICY, retryAfterMs } from './call-retry.ts';
import { capture } from './capture.ts';
import { generateCases } from './generate-cases.ts';
import type { ScriptedFailure } from './scripted-model-server.ts';
import { TraceStore } from './trace-store.ts';

const caseSet = generateCases({ perCell: 1 });
const NOW = Date.parse('Tue, 01 Dec 2026 12:00:00 GMT');
let directory: string | null = null;

afterEach(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
  directory = null;
});

/** One case's seven conditions captured by `scripted/adopt` behind a server that first serves `failures`. */
async function captureAfter(failures: readonly ScriptedFailure[]) {
  directory = await mkdtemp(join(tmpdir(), 'bench-retry-'));
  const model = await openBenchModel('scripted/adopt', {}, { failures });
  const waits: number[] = [];
  const store = new TraceStore(directory);
  try {
    const report = await capture(caseSet, model, store, {
      limit: 1,
      retry: {
        policy: DEFAULT_RETRY_POLICY,
        now: () => NOW,
        sleep: (milliseconds) => {
          waits.push(milliseconds);
          return Promise.resolve();
        },
      },
    });
    return { report, waits, traces: (await store.readAll()).traces };
  } finally {
    await model.close();
  }
}

describe('benchmark call retries', () => {
  it('read Retry-After as seconds or an HTTP date, and back off exponentially within the cap', () => {
    expect(retryAfterMs('2', NOW)).toBe(2_000);
    expect(retryAfterMs('Tue, 01 Dec 2026 12:00:03 GMT', NOW)).toBe(3_000);
    expect(retryAfterMs('Tue, 01 Dec 2026 11:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs('soon', NOW)).toBeNull();
    expect([1, 2, 3].map((retry) => backoffMs(DEFAULT_RETRY_POLICY, retry, null, NOW))).toEqual([1_000, 2_000, 4_000]);
    expect(backoffMs(DEFAULT_RETRY_POLICY, 1, '7200', NOW)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
  });

  it('retry a 429, a 503 and a dropped connection from a server on 127.0.0.1, honouring Retry-After, and trace each retry', async () => {
    const { report, waits, traces } = await captureAfter([
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 503, headers: { 'retry-after': 'Tue, 01 Dec 2026 12:00:03 GMT' } },
      { drop: true },
    ]);
    expect(report.failed).toEqual([]);
    expect(waits).toEqual([2_000, 3_000, 4_000]);
    const retried = traces.filter((trace) => trace.retries.length > 0);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.retries).toEqual([
      { attempt: 1, code: 'rate-limit', status: 429, retryAfter: '2', waitMs: 2_000 },
      { attempt: 2, code: 'provider-error', status: 503, retryAfter: 'Tue, 01 Dec 2026 12:00:03 GMT', waitMs: 3_000 },
      { attempt: 3, code: 'network', status: null, retryAfter: null, waitMs: 4_000 },
    ]);
    // The answer that finally arrived is the one traced and scored.
    expect(Number(retried[0]!.answer)).toBe(retried[0]!.condition === 'clean' ? retried[0]!.gold : retried[0]!.wrong);
  });

  it('give up after the bounded attempts, and never retry a failure a retry cannot fix', async () => {
    const busy = await captureAfter(Array.from({ length: DEFAULT_RETRY_POLICY.attempts }, () => ({ status: 500 })));
    expect(busy.report.failed).toEqual([
      expect.objectContaining({ code: 'provider-error', attempts: DEFAULT_RETRY_POLICY.attempts }),
    ]);
    expect(busy.waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(busy.traces.map((trace) => trace.item)).not.toContain(busy.report.failed[0]!.key);

    const refused = await captureAfter([{ status: 401 }]);
    expect(refused.report.failed).toEqual([expect.objectContaining({ code: 'bad-key', attempts: 1 })]);
    expect(refused.waits).toEqual([]);
  });
});
