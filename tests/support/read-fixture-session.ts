import path from 'node:path';
import type { Session } from '../../protocol/index.ts';
import { Fence, readSessionFile } from '../../runtime/atlas/index.ts';
import { FIXTURES } from './fixtures-directory.ts';

/** The sessions the real reader builds from one fixture file (path under `tests/fixtures/`), for UI tests. */
export async function readFixtureSessions(relativePath: string): Promise<Session[]> {
  const result = await readSessionFile(path.join(FIXTURES, relativePath), { fence: new Fence([FIXTURES]) });
  return result.sessions;
}
