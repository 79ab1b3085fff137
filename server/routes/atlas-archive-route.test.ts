import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AtlasSessionResponseSchema,
  AtlasSessionsResponseSchema,
  AtlasWhyResponseSchema,
  SettingsResponseSchema,
} from '../../protocol/http-api.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';
import { CODEX_MULTI_SESSION, hashTree } from '../atlas/testing/atlas-fixtures.ts';

const atlas = withAtlasServer({ prefix: 'weft-atlas-archive-' });

const listing = async () =>
  AtlasSessionsResponseSchema.parse(await (await atlas.server.api('/api/atlas/sessions')).json());

describe('the Atlas over a session whose file its agent deleted', () => {
  it('keeps it listed, readable (for the mirror) and answerable from the archive, marked source deleted', async () => {
    const before = (await listing()).sessions.find((session) => session.sessionId === CODEX_MULTI_SESSION)!;
    expect(before.sourceDeleted).toBeUndefined();
    expect(existsSync(join(atlas.fixtures.weftHome, 'archive', 'codex'))).toBe(true);
    const path = before.sourcePath;
    rmSync(path);
    const hashes = hashTree(atlas.fixtures.sessions);

    const card = (await listing()).sessions.find((session) => session.sessionId === CODEX_MULTI_SESSION);
    expect(card).toMatchObject({ sourceDeleted: true, turnCount: 2, sourcePath: path });

    const response = await atlas.server.api(`/api/atlas/sessions/${CODEX_MULTI_SESSION}?runner=codex`);
    expect(response.status).toBe(200);
    const detail = AtlasSessionResponseSchema.parse(await response.json());
    expect(detail.sourceDeleted).toBe(true);
    expect(detail.sessions[0]).toMatchObject({ sessionId: CODEX_MULTI_SESSION, sourcePath: path });
    expect(detail.sessions[0]!.turns.map((turn) => turn.number)).toEqual([1, 2]);
    expect(detail.sessions[0]!.turns[0]!.userText).toContain('TODO.md');

    const why = AtlasWhyResponseSchema.parse(
      await (
        await atlas.server.api(
          `/api/atlas/why?target=${encodeURIComponent('/tmp/realsessions/out/codex/multi-turn/repo/TODO.md')}`,
        )
      ).json(),
    );
    expect(why.hits.find((hit) => hit.sessionId === CODEX_MULTI_SESSION)).toMatchObject({ sourceDeleted: true });
    // Reading from the archive wrote nothing under a root.
    expect(hashTree(atlas.fixtures.sessions)).toEqual(hashes);
  });

  it('shows the preservation setting (on by default) and drops a runner’s copies when it is switched off', async () => {
    const settings = SettingsResponseSchema.parse(await (await atlas.server.api('/api/settings')).json());
    expect(settings.sessionArchive).toEqual({ enabled: true, runners: { 'claude-code': true, codex: true, pi: true } });
    const put = await atlas.server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionArchive: { enabled: true, runners: { 'claude-code': true, codex: false, pi: true } },
      }),
    });
    expect(put.status).toBe(200);
    expect(SettingsResponseSchema.parse(await put.json()).sessionArchive?.runners.codex).toBe(false);

    expect((await listing()).sessions.some((session) => session.sessionId === CODEX_MULTI_SESSION)).toBe(false);
    expect(existsSync(join(atlas.fixtures.weftHome, 'archive', 'codex'))).toBe(false);
    expect(existsSync(join(atlas.fixtures.weftHome, 'archive', 'pi'))).toBe(true);
    expect((await atlas.server.api(`/api/atlas/sessions/${CODEX_MULTI_SESSION}?runner=codex`)).status).toBe(404);
  });
});
