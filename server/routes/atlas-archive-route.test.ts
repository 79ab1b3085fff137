import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AtlasSessionResponseSchema,
  AtlasSessionsResponseSchema,
  AtlasWhyResponseSchema,
  SettingsResponseSchema,
} from '../../protocol/http-api.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { closeAtlasService } from '../atlas/atlas-registry.ts';
import {
  CODEX_MULTI_SESSION,
  copyAtlasFixtures,
  hashTree,
  type AtlasFixtures,
} from '../atlas/testing/atlas-fixtures.ts';

let fixtures: AtlasFixtures;
let server: TestServer;
const savedRoots = process.env.WEFT_SESSION_ROOTS;

beforeAll(async () => {
  fixtures = copyAtlasFixtures('weft-atlas-archive-');
  process.env.WEFT_SESSION_ROOTS = fixtures.rootsVariable;
  server = await startTestServer({ home: fixtures.weftHome });
});
afterAll(async () => {
  await closeAtlasService(server.context);
  await server.close();
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
  fixtures.dispose();
});

const listing = async () => AtlasSessionsResponseSchema.parse(await (await server.api('/api/atlas/sessions')).json());

describe('the Atlas over a session whose file its agent deleted', () => {
  it('keeps it listed, readable (for the mirror) and answerable from the archive, marked source deleted', async () => {
    const before = (await listing()).sessions.find((session) => session.sessionId === CODEX_MULTI_SESSION)!;
    expect(before.sourceDeleted).toBeUndefined();
    expect(existsSync(join(fixtures.weftHome, 'archive', 'codex'))).toBe(true);
    const path = before.sourcePath;
    rmSync(path);
    const hashes = hashTree(fixtures.sessions);

    const card = (await listing()).sessions.find((session) => session.sessionId === CODEX_MULTI_SESSION);
    expect(card).toMatchObject({ sourceDeleted: true, turnCount: 2, sourcePath: path });

    const response = await server.api(`/api/atlas/sessions/${CODEX_MULTI_SESSION}?runner=codex`);
    expect(response.status).toBe(200);
    const detail = AtlasSessionResponseSchema.parse(await response.json());
    expect(detail.sourceDeleted).toBe(true);
    expect(detail.sessions[0]).toMatchObject({ sessionId: CODEX_MULTI_SESSION, sourcePath: path });
    expect(detail.sessions[0]!.turns.map((turn) => turn.number)).toEqual([1, 2]);
    expect(detail.sessions[0]!.turns[0]!.userText).toContain('TODO.md');

    const why = AtlasWhyResponseSchema.parse(
      await (
        await server.api(
          `/api/atlas/why?target=${encodeURIComponent('/tmp/realsessions/out/codex/multi-turn/repo/TODO.md')}`,
        )
      ).json(),
    );
    expect(why.hits.find((hit) => hit.sessionId === CODEX_MULTI_SESSION)).toMatchObject({ sourceDeleted: true });
    // Reading from the archive wrote nothing under a root.
    expect(hashTree(fixtures.sessions)).toEqual(hashes);
  });

  it('shows the preservation setting (on by default) and drops a runner’s copies when it is switched off', async () => {
    const settings = SettingsResponseSchema.parse(await (await server.api('/api/settings')).json());
    expect(settings.sessionArchive).toEqual({ enabled: true, runners: { 'claude-code': true, codex: true, pi: true } });
    const put = await server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionArchive: { enabled: true, runners: { 'claude-code': true, codex: false, pi: true } },
      }),
    });
    expect(put.status).toBe(200);
    expect(SettingsResponseSchema.parse(await put.json()).sessionArchive?.runners.codex).toBe(false);

    expect((await listing()).sessions.some((session) => session.sessionId === CODEX_MULTI_SESSION)).toBe(false);
    expect(existsSync(join(fixtures.weftHome, 'archive', 'codex'))).toBe(false);
    expect(existsSync(join(fixtures.weftHome, 'archive', 'pi'))).toBe(true);
    expect((await server.api(`/api/atlas/sessions/${CODEX_MULTI_SESSION}?runner=codex`)).status).toBe(404);
  });
});
