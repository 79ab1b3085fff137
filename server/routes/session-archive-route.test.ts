import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtlasSessionsResponseSchema } from '../../protocol/http-api.ts';
import { SessionArchiveHealthSchema } from '../../protocol/index.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';

const atlas = withAtlasServer({ prefix: 'weft-archive-health-' });

const health = async (init?: RequestInit) => {
  const response = await atlas.server.api(init ? '/api/session-archive/verify' : '/api/session-archive', init);
  expect(response.status).toBe(200);
  return SessionArchiveHealthSchema.parse(await response.json());
};

describe('the session archive’s health through the server (Settings → Session archive)', () => {
  it('shows copies and bytes, runs a verification on request and names the first bad copy', async () => {
    // The Atlas's first listing indexes the fixtures, and with them the archive makes its copies.
    const sessions = AtlasSessionsResponseSchema.parse(await (await atlas.server.api('/api/atlas/sessions')).json());
    expect(sessions.sessions.length).toBeGreaterThan(0);
    const before = await health();
    expect(before.copies).toBeGreaterThan(0);
    expect(before).toMatchObject({ unhashed: 0, lastVerification: null });
    expect(before.bytes).toBeGreaterThan(before.compressedBytes);

    const verified = await health({ method: 'POST' });
    expect(verified.lastVerification).toMatchObject({ copies: before.copies, bytes: before.bytes, bad: 0 });
    expect((await health()).lastVerification).toEqual(verified.lastVerification);

    // Damage one copy on disk: the next verification names it.
    const folder = join(atlas.fixtures.weftHome, 'archive', 'codex');
    const name = readdirSync(folder).find((candidate) => candidate.endsWith('.json'))!;
    const { path } = JSON.parse(readFileSync(join(folder, name), 'utf8')) as { path: string };
    const copy = join(folder, name.replace(/\.json$/, '.jsonl.gz'));
    writeFileSync(copy, readFileSync(copy).subarray(0, 30));
    const damaged = await health({ method: 'POST' });
    expect(damaged.lastVerification).toMatchObject({ bad: 1, firstBad: { path, runner: 'codex' } });
  });
});
