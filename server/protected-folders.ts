import { homedir } from 'node:os';
import { resolveSessionRoots } from '../runtime/atlas/index.ts';
import type { ProtectedFolder } from '../runtime/fs/index.ts';
import { canvasesDirectory } from '../runtime/fs/index.ts';

/** Where no backup may land: every session root in force (read now) and `$WEFT_HOME/canvases`. */
export function protectedFolders(home: string): ProtectedFolder[] {
  return [
    ...resolveSessionRoots(process.env, homedir(), home).roots.map((path) => ({ path, kind: 'session-root' as const })),
    { path: canvasesDirectory(home), kind: 'canvas-records' },
  ];
}
