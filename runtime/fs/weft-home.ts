import { mkdir, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `WEFT_HOME` or `~/.weft`. */
export function resolveWeftHome(env: Record<string, string | undefined> = process.env): string {
  const configured = env.WEFT_HOME?.trim();
  return configured ? resolve(configured) : join(homedir(), '.weft');
}

/** Create the data directory (0700) and its `canvases/` folder; tighten an existing one. */
export async function ensureWeftHome(home: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await chmod(home, 0o700).catch(() => undefined);
  await mkdir(join(home, 'canvases'), { recursive: true, mode: 0o700 });
}

export function canvasesDirectory(home: string): string {
  return join(home, 'canvases');
}
