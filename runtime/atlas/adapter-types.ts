import type { ParseReport } from '../../protocol/index.ts';
import type { AtlasSession } from './session-builder.ts';

export interface RecordContext {
  /** The physical line the record came from (without `\n`). */
  line: Uint8Array;
  report: ParseReport;
}

/** One runner's format: a plain-JSON state, a per-record step, and the canonical view of the state. */
export interface Adapter<State = unknown> {
  initial(sourcePath: string): State;
  record(state: State, record: Record<string, unknown>, context: RecordContext): void;
  sessions(state: State, sourcePath: string): AtlasSession[];
}
