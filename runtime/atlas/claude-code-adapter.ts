import path from 'node:path';
import type { Adapter } from './adapter-types.ts';
import { buildSession, initialBuilder, type BuilderState } from './session-builder.ts';

export const claudeCodeAdapter: Adapter<BuilderState> = {
  initial: () => initialBuilder('claude-code'),
  record: () => undefined,
  sessions: (state, sourcePath) => [buildSession(state, sourcePath, path.basename(sourcePath, '.jsonl'))],
};
