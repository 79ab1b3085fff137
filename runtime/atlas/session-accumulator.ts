import { WeftError, type ParseReport, type Runner } from '../../protocol/index.ts';
import { adapterFor } from './adapters.ts';
import { decodeLine, decodeLineText, MAX_LINE_BYTES } from './line-decoder.ts';
import { emptyParseReport } from './parse-report.ts';
import type { AtlasSession } from './session-builder.ts';

const STATE_VERSION = 1;

/** Everything an accumulator knows, as plain JSON so it can be saved and restored. */
interface AccumulatorState {
  version: number;
  runner: Runner;
  sourcePath: string;
  bytesConsumed: number;
  report: ParseReport;
  adapter: unknown;
}

export class SessionStateError extends WeftError {
  declare readonly code: 'ATLAS_BAD_STATE';
  constructor(message: string) {
    super('ATLAS_BAD_STATE', `ATLAS_BAD_STATE: ${message}`, null);
    this.name = 'SessionStateError';
  }
}

/**
 * Streaming parse of one session file. Feed complete lines (bytes without the `\n`) with `push`;
 * `bytesConsumed` counts exactly the bytes of complete lines (including their `\n`), so a reader
 * can save the state and later resume at that byte offset when the file grew with the same prefix.
 * An unterminated last line is handed to `finish(tail)`: it shows up in `sessions()` and `report()`
 * but never in `bytesConsumed` or `saveState()`, because the writer may still be appending to it.
 */
export class SessionAccumulator {
  private state: AccumulatorState;
  /** The view including a provisional tail from `finish`, or null when there is none. */
  private provisional: AccumulatorState | null = null;

  constructor(runner: Runner, sourcePath: string) {
    this.state = {
      version: STATE_VERSION,
      runner,
      sourcePath,
      bytesConsumed: 0,
      report: emptyParseReport(),
      adapter: adapterFor(runner).initial(sourcePath),
    };
  }

  static restore(json: string): SessionAccumulator {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw new SessionStateError('state is not JSON');
    }
    return SessionAccumulator.fromState(parsed);
  }

  /** `restore` for a state already parsed (`JSON.parse(saveState())`, e.g. nested in a larger saved object). */
  static fromState(parsed: unknown): SessionAccumulator {
    const state = parsed as Partial<AccumulatorState> | null;
    if (state === null || typeof state !== 'object' || state.version !== STATE_VERSION) {
      throw new SessionStateError('state has an unknown version');
    }
    if (
      typeof state.runner !== 'string' ||
      typeof state.sourcePath !== 'string' ||
      typeof state.bytesConsumed !== 'number'
    ) {
      throw new SessionStateError('state is missing fields');
    }
    const accumulator = new SessionAccumulator(state.runner, state.sourcePath);
    accumulator.state = state as AccumulatorState;
    return accumulator;
  }

  get runner(): Runner {
    return this.state.runner;
  }

  get sourcePath(): string {
    return this.state.sourcePath;
  }

  /** Bytes of complete lines consumed so far: the offset to resume reading from. */
  get bytesConsumed(): number {
    return this.state.bytesConsumed;
  }

  /**
   * One complete line, without its `\n` (a trailing `\r` is tolerated). `fullLength` is the line's
   * real length when the caller kept only a capped head of an oversized line.
   */
  push(line: Uint8Array, fullLength: number = line.length): void {
    this.provisional = null;
    this.state.bytesConsumed += fullLength + 1;
    consumeLine(this.state, line, fullLength);
  }

  /**
   * One complete line the caller already decoded: `text` must be the valid UTF-8 decoding of `line`
   * (the bytes, without the `\n`, which adapters hash for derived record ids).
   */
  pushText(text: string, line: Uint8Array): void {
    this.provisional = null;
    this.state.bytesConsumed += line.length + 1;
    const adapter = adapterFor(this.state.runner);
    for (const record of decodeLineText(text, this.state.report)) {
      adapter.record(this.state.adapter, record, { line, report: this.state.report });
    }
  }

  /**
   * End of the bytes available now. `tail` is an unterminated last line, if any: it is parsed into
   * the provisional view (or counted as `truncatedLastLine` when it is not complete JSON).
   */
  finish(tail?: Uint8Array, fullLength: number = tail?.length ?? 0): void {
    if (tail === undefined || fullLength === 0) {
      this.provisional = null;
      return;
    }
    const copy = cloneJson(this.state);
    const kept = fullLength > MAX_LINE_BYTES || tail.length < fullLength ? tail.subarray(0, 0) : tail;
    const probe = emptyParseReport();
    const objects = decodeLine(kept, probe);
    if (objects.length === 0 || probe.invalidJson > 0) {
      // A line still being written: count it, keep nothing from it.
      copy.report.lines += 1;
      copy.report.truncatedLastLine += 1;
    } else {
      consumeLine(copy, kept, fullLength);
    }
    this.provisional = copy;
  }

  sessions(): AtlasSession[] {
    const view = this.provisional ?? this.state;
    return adapterFor(view.runner).sessions(cloneJson(view.adapter), view.sourcePath);
  }

  report(): ParseReport {
    return cloneJson((this.provisional ?? this.state).report);
  }

  /** The state after the complete lines (never the provisional tail), as a JSON string. */
  saveState(): string {
    return JSON.stringify(this.state);
  }

  /** `sessions()` and `saveState()` together, serialising the state once when there is no provisional tail. */
  snapshot(): { sessions: AtlasSession[]; state: string } {
    const state = this.saveState();
    if (this.provisional !== null) return { sessions: this.sessions(), state };
    const copy = JSON.parse(state) as AccumulatorState;
    return { sessions: adapterFor(copy.runner).sessions(copy.adapter, copy.sourcePath), state };
  }

  /**
   * `snapshot()` for a caller that drops the accumulator right after: the sessions are built from the live
   * state (sharing its arrays) rather than from a parsed copy. The accumulator must not be used afterwards.
   */
  finalSnapshot(): { sessions: AtlasSession[]; state: string } {
    const state = this.saveState();
    // The provisional view is already a private copy (made by `finish`).
    const view = this.provisional ?? this.state;
    return { sessions: adapterFor(view.runner).sessions(view.adapter, view.sourcePath), state };
  }
}

/** The state is plain JSON by construction; a JSON round trip is the cheapest deep copy of it. */
function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function consumeLine(state: AccumulatorState, line: Uint8Array, fullLength: number): void {
  if (fullLength > MAX_LINE_BYTES || line.length < fullLength) {
    state.report.lines += 1;
    state.report.oversizedLines += 1;
    return;
  }
  const adapter = adapterFor(state.runner);
  for (const record of decodeLine(line, state.report)) {
    adapter.record(state.adapter, record, { line, report: state.report });
  }
}

export function createSessionAccumulator(runner: Runner, sourcePath: string): SessionAccumulator {
  return new SessionAccumulator(runner, sourcePath);
}
