import { randomUUID } from 'node:crypto';
import { chmod, link, mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../../src/core/index.ts';
import type { CanonicalRequest } from '../../protocol/index.ts';
import type { CallSettings } from './bench-model.ts';
import type { Condition } from './conditions.ts';

export const TRACE_FORMAT = 'weft.context-repair.trace';

/** One captured request and its answer: everything the scorer needs, so a run re-scores from its traces alone. */
export interface Trace {
  format: typeof TRACE_FORMAT;
  version: 1;
  /** `caseId/condition`: one trace per item. */
  item: string;
  caseId: string;
  family: string;
  depth: number;
  condition: Condition;
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
  capturedAt: string;
  elapsedMs: number;
}

export class TraceError extends Error {
  constructor(
    readonly code: 'trace-exists' | 'trace-corrupt',
    message: string,
  ) {
    super(message);
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
