import { isAbsolute, join } from 'node:path';
import type { FileTouch, Footprint } from './agent-events.ts';

/** Files in a footprint, absolute; duplicates removed, first operation kept. */
export function touchedFiles(footprints: readonly Footprint[], cwd: string): FileTouch[] {
  const seen = new Map<string, FileTouch>();
  for (const footprint of footprints) {
    for (const file of footprint.files) {
      const path = isAbsolute(file.path) ? file.path : join(cwd, file.path);
      if (!seen.has(path)) seen.set(path, { path, op: file.op });
    }
  }
  return [...seen.values()];
}

/** Files the turn changed (reads left out): what the downstream line names. */
export function changedFiles(footprints: readonly Footprint[], cwd: string): string[] {
  return touchedFiles(footprints, cwd)
    .filter((file) => file.op !== 'read')
    .map((file) => file.path);
}
