import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';
import { startTestServer } from '../../tests/support/test-server.ts';
import { atlasServiceFor, closeAtlasService } from './atlas-registry.ts';
import { CLAUDE_SUBAGENT_SESSION, PI_MULTI_FILE, PI_MULTI_SESSION } from './testing/atlas-fixtures.ts';

// Preservation off: these cases are about files gone with no archived copy (with one, see atlas-archive-route.test.ts).
const atlas = withAtlasServer({
  prepare: (fixtures) => {
    mkdirSync(fixtures.weftHome, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(fixtures.weftHome, 'settings.json'),
      JSON.stringify({
        version: 1,
        providers: [],
        judgeModelId: null,
        backupFolder: null,
        defaultModelId: null,
        sessionArchive: { enabled: false, runners: { 'claude-code': true, codex: true, pi: true } },
      }),
      { mode: 0o600 },
    );
  },
});

it('a session file moved inside the roots since it was indexed is found again at once (a re-scan, no 404)', async () => {
  expect((await atlas.server.api('/api/atlas/sessions')).status).toBe(200);
  const moved = join(atlas.fixtures.sessions, 'pi/multi-turn/sessions/--moved-folder--');
  mkdirSync(moved, { recursive: true });
  renameSync(join(atlas.fixtures.sessions, PI_MULTI_FILE), join(moved, 'renamed.jsonl'));
  const response = await atlas.server.api(`/api/atlas/sessions/${PI_MULTI_SESSION}`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { sessions: { sessionId: string; sourcePath: string }[] };
  expect(body.sessions[0]).toMatchObject({ sessionId: PI_MULTI_SESSION });
  expect(body.sessions[0]!.sourcePath).toMatch(/--moved-folder--\/renamed\.jsonl$/);
  // Put back for the next test, which moves it out of the roots.
  renameSync(join(moved, 'renamed.jsonl'), join(atlas.fixtures.sessions, PI_MULTI_FILE));
});

it('a session file removed since it was indexed is 404 session-not-found, not a fence breach', async () => {
  expect((await atlas.server.api('/api/atlas/sessions')).status).toBe(200);
  renameSync(join(atlas.fixtures.sessions, PI_MULTI_FILE), join(atlas.fixtures.directory, 'moved-away.jsonl'));
  const response = await atlas.server.api(`/api/atlas/sessions/${PI_MULTI_SESSION}`);
  expect(response.status).toBe(404);
  expect((await response.json()).error.code).toBe('session-not-found');
});

it('a subagent run whose file went since it was indexed leaves the session readable without it', async () => {
  expect((await atlas.server.api('/api/atlas/sessions')).status).toBe(200);
  const run = join(
    atlas.fixtures.sessions,
    'claude/subagent/projects/-tmp-realsessions-out-claude-subagent-repo',
    `${CLAUDE_SUBAGENT_SESSION}/subagents/agent-a364d2f0ac3b26c85.jsonl`,
  );
  renameSync(run, join(atlas.fixtures.directory, 'moved-run.jsonl'));
  const response = await atlas.server.api(`/api/atlas/sessions/${CLAUDE_SUBAGENT_SESSION}?runner=claude-code`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { sessions: { sessionId: string; isSubagent: boolean }[] };
  expect(body.sessions.map((session) => session.sessionId)).toEqual([CLAUDE_SUBAGENT_SESSION]);
});

it('closing the server closes its Atlas (index database and follow watchers) too', async () => {
  const other = await startTestServer({ home: join(atlas.fixtures.directory, 'second-home') });
  const service = atlasServiceFor(other.context);
  await service.started;
  await other.close();
  const after = atlasServiceFor(other.context);
  expect(after).not.toBe(service);
  await closeAtlasService(other.context);
});
