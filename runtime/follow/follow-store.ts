import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AtlasFollowSchema, type AtlasFollow } from '../../protocol/index.ts';
import { writeFileAtomic, KeyedQueue } from '../fs/index.ts';

const FollowsFileSchema = z.object({ version: z.literal(1), follows: z.array(AtlasFollowSchema) });

export function followsPath(weftHome: string): string {
  return join(weftHome, 'follows.json');
}

/**
 * The followed sessions, in `$WEFT_HOME/follows.json` (0600, replaced atomically), so following survives a
 * restart of the app. A missing or damaged file reads as no follows; it is only replaced by a deliberate change.
 */
export class FollowStore {
  private readonly queue = new KeyedQueue();
  private cached: AtlasFollow[] | null = null;

  constructor(readonly path: string) {}

  async list(): Promise<AtlasFollow[]> {
    if (this.cached === null) this.cached = await this.readFromDisk();
    return this.cached.map((follow) => ({ ...follow }));
  }

  /** Adds or removes one follow; returns the list as written. */
  update(
    change: { follow: AtlasFollow } | { unfollow: { runner: string; sessionId: string } },
  ): Promise<AtlasFollow[]> {
    return this.queue.run('follows', async () => {
      const current = await this.list();
      const key = 'follow' in change ? change.follow : change.unfollow;
      const rest = current.filter((follow) => !(follow.runner === key.runner && follow.sessionId === key.sessionId));
      const next = 'follow' in change ? [...rest, change.follow] : rest;
      if (next.length === current.length && !('follow' in change)) return current;
      await writeFileAtomic(this.path, `${JSON.stringify({ version: 1, follows: next }, null, 2)}\n`);
      this.cached = next;
      return next.map((follow) => ({ ...follow }));
    });
  }

  private async readFromDisk(): Promise<AtlasFollow[]> {
    try {
      const parsed = FollowsFileSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')));
      return parsed.success ? parsed.data.follows : [];
    } catch {
      return [];
    }
  }
}
