import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-write.ts';
import { processAlive } from './orphan-temps.ts';
import { WeftError } from '../../protocol/index.ts';

/** `WEFT_HOME/server.json`: how the CLI, the desktop shell and a second start find the running server. */
export const ServerFileSchema = z.object({
  port: z.number().int(),
  token: z.string(),
  pid: z.number().int(),
  origin: z.string(),
});
export type ServerFile = z.infer<typeof ServerFileSchema>;

export const serverFilePath = (home: string) => join(home, 'server.json');

export async function readServerFile(home: string): Promise<ServerFile | null> {
  try {
    const parsed = ServerFileSchema.safeParse(JSON.parse(await readFile(serverFilePath(home), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the server a `server.json` names still answers (its process alive and its health route up). */
async function answers(info: ServerFile): Promise<boolean> {
  if (!processAlive(info.pid)) return false;
  // Only a loopback origin is ever written there; anything else is not ours to call.
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(info.origin)) return false;
  try {
    const response = await fetch(`${info.origin}/api/health`, {
      headers: { authorization: `Bearer ${info.token}` },
      signal: AbortSignal.timeout(1500),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Refuses to start a second server on one `WEFT_HOME` (two would each think they own the canvas records):
 * one line naming the running one. A `server.json` left by a server that is gone is simply replaced later.
 */
export async function assertNoServerRunning(home: string): Promise<void> {
  const info = await readServerFile(home);
  if (info && (await answers(info))) {
    throw new WeftError(
      'already-running',
      `Weft is already running for ${home} at ${info.origin} (pid ${info.pid}); use that one, or stop it first.`,
      409,
    );
  }
}

export async function writeServerFile(home: string, info: ServerFile): Promise<void> {
  await writeFileAtomic(serverFilePath(home), JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
}

/** Removes `server.json` only while it is still this server's (same token): never another server's. */
export async function removeOwnServerFile(home: string, token: string): Promise<void> {
  const info = await readServerFile(home);
  if (info?.token === token) await rm(serverFilePath(home), { force: true });
}
