import path from 'node:path';
import type { Adapter } from './adapter-types.ts';
import { buildSession, initialBuilder, type BuilderState } from './session-builder.ts';

export const piAdapter: Adapter<BuilderState> = {
  initial: () => initialBuilder('pi'),
  record: () => undefined,
  sessions: (state, sourcePath) => [buildSession(state, sourcePath, path.basename(sourcePath, '.jsonl'))],
};
