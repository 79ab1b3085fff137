/**
 * The anchors journal's figures for `bench:core` (issue 27): one save's extra cost for its line in the journal, and a
 * long log checked against its head and the journal as `weft verify` does (the chain verified event by event, then
 * the head file against the journal's line).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord } from '../../protocol/index.ts';
import { AnchorsJournal, chainHeadOf, journalDifference } from '../../runtime/fs/index.ts';
import { nodeHashPort } from '../../runtime/hash/index.ts';
import { appendEvent, chainVerdict } from '../../src/core/index.ts';

type Print = (name: string, value: number, unit: string, digits?: number) => void;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A hash-chained log of `count` small events, as a long-lived canvas's would be. */
function longLog(count: number): EventRecord[] {
  const events: EventRecord[] = [];
  for (let index = 0; index < count; index += 1)
    events.push(
      appendEvent(
        events,
        { op: index % 3 ? 'edit-node' : 'add-node', objectId: `n${index % 5000}`, meta: { fields: 'question' } },
        { now: 1_700_000_000_000 + index, newId: () => `e${index}`, hash: nodeHashPort },
      ),
    );
  return events;
}

/** `anchor_append_ms`: the median of `appends` journal lines written one after another, as saves write them. */
async function benchAppend(appends: number, print: Print): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'weft-bench-anchors-'));
  try {
    const journal = new AnchorsJournal(directory);
    const events = longLog(2);
    const samples: number[] = [];
    for (let index = 0; index < appends; index += 1) {
      const head = chainHeadOf(`canvas-${index % 50}`, events, null);
      const start = performance.now();
      await journal.append('head', head);
      samples.push(performance.now() - start);
    }
    print('anchor_append_ms', median(samples), 'ms', 3);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * `verify_<n>_events_ms`: the chain against its head, then the head against the journal's line, with OpenSSL's
 * SHA-256 as `weft verify` hashes; median wall clock, and beside it the median CPU time of the same runs.
 */
function benchVerify(count: number, label: string, runs: number, print: Print): void {
  const events = longLog(count);
  const head = chainHeadOf('long', events, null);
  const anchor = { ...head, seq: 1, at: 0, kind: 'head' as const, prevHash: '', hash: '' };
  const cpu: number[] = [];
  const samples = Array.from({ length: runs }, () => {
    const used = process.cpuUsage();
    const start = performance.now();
    const verdict = chainVerdict(events, { length: head.eventCount, headHash: head.lastEventHash }, nodeHashPort);
    const difference = journalDifference(events, head, anchor);
    const wall = performance.now() - start;
    const { user, system } = process.cpuUsage(used);
    if (verdict.status !== 'intact' || difference !== null) throw new Error('the benchmark log does not verify');
    cpu.push((user + system) / 1000);
    return wall;
  });
  print(`verify_${label}_events_ms`, median(samples), 'ms', 1);
  print(`verify_${label}_events_cpu_ms`, median(cpu), 'ms', 1);
}

export async function benchAnchors(quick: boolean, print: Print): Promise<void> {
  await benchAppend(quick ? 20 : 500, print);
  benchVerify(quick ? 10_000 : 1_000_000, '1m', quick ? 1 : 3, print);
}
