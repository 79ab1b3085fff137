import path from 'node:path';
import type { Adapter } from './adapter-types.ts';
import { buildSession, initialBuilder, type BuilderState } from './session-builder.ts';

export const codexAdapter: Adapter<BuilderState> = {
  initial: () => initialBuilder('codex'),
  record: () => undefined,
  sessions: (state, sourcePath) => [buildSession(state, sourcePath, path.basename(sourcePath, '.jsonl'))],
};
