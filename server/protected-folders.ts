import { homedir } from 'node:os';
import { sessionRootsFromEnv } from '../runtime/atlas/index.ts';
import type { ProtectedFolder } from '../runtime/fs/index.ts';
import { canvasesDirectory } from '../runtime/fs/index.ts';

/** Where no backup may land: every session root (`WEFT_SESSION_ROOTS`, read now) and `$WEFT_HOME/canvases`. */
export function protectedFolders(home: string): ProtectedFolder[] {
  return [
    ...sessionRootsFromEnv(process.env, homedir()).map((path) => ({ path, kind: 'session-root' as const })),
    { path: canvasesDirectory(home), kind: 'canvas-records' },
  ];
}
