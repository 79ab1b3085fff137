import { randomUUID } from 'node:crypto';
import { chmod, link, mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../../src/core/index.ts';
import { WeftError, type CanonicalRequest } from '../../protocol/index.ts';
import type { CallSettings } from './bench-model.ts';
import type { RetryRecord } from './call-retry.ts';
import type { Condition } from './conditions.ts';

export const TRACE_FORMAT = 'weft.context-repair.trace';

/** What a final request of `recompute-descendants` was built on: one regeneration trace, by item, request and answer. */
export interface RegenerationReference {
  item: string;
  requestHash: string;
  /** SHA-256 of the regenerated reply, exactly as it entered the later contexts. */
  answerSha256: string;
}

/** One captured request and its answer: everything the scorer needs, so a run re-scores from its traces alone. */
export interface Trace {
  format: typeof TRACE_FORMAT;
  /** 3: traces carry `retries`; 2: `step` (version 1, before regenerations were asked of the model, had none). */
  version: 3;
  /** `caseId/condition` for the request the condition is scored on; `…/regenerate/<name>` for a Replay step. */
  item: string;
  /** `final`: the target's request, scored; `regenerate`: a descendant re-asked by the model during the Replay. */
  step: 'final' | 'regenerate';
  /** For a regeneration: the variable re-asked and its position in core's Replay order (else null). */
  regenerates: string | null;
  replayIndex: number | null;
  /** For the final request of `recompute-descendants`: the regeneration traces its context holds, in order. */
  regenerations: RegenerationReference[];
  caseId: string;
  family: string;
  depth: number;
  condition: Condition;
  /** The asked variable's correct value and the value the pollution implies (the target's, for a final). */
  gold: number;
  wrong: number;
  caseSetHash: string;
  model: string;
  scripted: boolean;
  providerKind: string;
  settings: CallSettings;
  operations: string[];
  staleNodes: string[];
  /** C9: SHA-256 of the canonical request, as the app would record it on its commit. */
  requestHash: string;
  request: CanonicalRequest;
  answer: string;
  finishReason: string;
  inputTokens: number | null;
  outputTokens: number | null;
  /** Each failed attempt retried before this answer arrived (429, 5xx, network), with its wait. */
  retries: RetryRecord[];
  capturedAt: string;
  elapsedMs: number;
}

export class TraceError extends WeftError {
  declare readonly code: 'trace-exists' | 'trace-corrupt';
  constructor(code: 'trace-exists' | 'trace-corrupt', message: string) {
    super(code, message, null);
    this.name = 'TraceError';
  }
}

/**
 * Write-once, content-addressed traces: a trace is stored as `<sha256 of its canonical JSON>.json`, written to a
 * temporary name and hard-linked into place (link refuses an existing name, so nothing is ever overwritten), then
 * made read-only.
 */
export class TraceStore {
  constructor(readonly directory: string) {}

  async write(trace: Trace): Promise<string> {
    await mkdir(this.directory, { recursive: true });
    const text = canonicalJson(trace);
    const digest = sha256Hex(text);
    const path = join(this.directory, `${digest}.json`);
    const temporary = join(this.directory, `.${digest}.${randomUUID()}.tmp`);
    await writeFile(temporary, text, { flag: 'wx', mode: 0o444 });
    try {
      await link(temporary, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new TraceError('trace-exists', `trace ${digest} is already stored; traces are never overwritten`);
      throw error;
    } finally {
      await unlink(temporary);
    }
    await chmod(path, 0o444);
    return digest;
  }

  /** Every trace whose name matches its content; a file that does not is reported, never trusted. */
  async readAll(): Promise<{ traces: Trace[]; corrupt: string[] }> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { traces: [], corrupt: [] };
      throw error;
    }
    const traces: Trace[] = [];
    const corrupt: string[] = [];
    for (const name of names.filter((entry) => /^[0-9a-f]{64}\.json$/.test(entry)).sort()) {
      const text = await readFile(join(this.directory, name), 'utf8');
      let trace: Trace | null;
      try {
        trace = JSON.parse(text) as Trace;
      } catch {
        trace = null;
      }
      if (!trace || trace.format !== TRACE_FORMAT || sha256Hex(canonicalJson(trace)) !== name.slice(0, 64)) {
        corrupt.push(name);
        continue;
      }
      traces.push(trace);
    }
    return { traces, corrupt };
  }
}

/** How a later request names the regeneration trace it was built on. */
export function regenerationReference(trace: Pick<Trace, 'item' | 'requestHash' | 'answer'>): RegenerationReference {
  return { item: trace.item, requestHash: trace.requestHash, answerSha256: sha256Hex(trace.answer) };
}

/** The references of `final` that no stored trace satisfies (same item, same request, same reply). */
export function missingRegenerations(
  final: Pick<Trace, 'regenerations'>,
  byItem: ReadonlyMap<string, readonly Trace[]>,
): RegenerationReference[] {
  return (final.regenerations ?? []).filter(
    (reference) =>
      !(byItem.get(reference.item) ?? []).some(
        (trace) => trace.requestHash === reference.requestHash && sha256Hex(trace.answer) === reference.answerSha256,
      ),
  );
}

/** Traces grouped by item, each group in capture order. */
export function tracesByItem(traces: readonly Trace[]): Map<string, Trace[]> {
  const byItem = new Map<string, Trace[]>();
  for (const trace of [...traces].sort((left, right) => left.capturedAt.localeCompare(right.capturedAt)))
    byItem.set(trace.item, [...(byItem.get(trace.item) ?? []), trace]);
  return byItem;
}
