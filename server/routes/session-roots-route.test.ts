import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtlasSessionsResponse, SessionRootsResponse } from '../../protocol/index.ts';
import { closeAtlasService } from '../atlas/atlas-registry.ts';
import { copyAtlasFixtures, hashTree, type AtlasFixtures } from '../atlas/testing/atlas-fixtures.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

// The server reads HOME (the runners' default folders) and WEFT_SESSION_ROOTS from its process: this file runs in
// its own worker, so both are set here and put back afterwards.
const saved = { HOME: process.env.HOME, WEFT_SESSION_ROOTS: process.env.WEFT_SESSION_ROOTS };
let fixtures: AtlasFixtures;
let server: TestServer;
let personHome: string;
/** A folder of five real Claude Code sessions (one recorded case each, laid out as Claude writes them). */
let claudeRoot: string;

const put = (name: keyof typeof saved, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};

beforeAll(async () => {
  fixtures = copyAtlasFixtures('weft-session-roots-');
  personHome = join(fixtures.directory, 'person-home');
  mkdirSync(personHome);
  claudeRoot = join(fixtures.sessions, 'claude');
  put('HOME', personHome);
  put('WEFT_SESSION_ROOTS', undefined);
  server = await startTestServer({ home: fixtures.weftHome });
});
afterAll(async () => {
  await closeAtlasService(server.context);
  await server.close();
  put('HOME', saved.HOME);
  put('WEFT_SESSION_ROOTS', saved.WEFT_SESSION_ROOTS);
  fixtures.dispose();
});

const call = (method: string, path?: string) =>
  server.api('/api/session-roots', {
    method,
    ...(path === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path }) }),
  });
const roots = async (response: Response) => {
  expect(response.status).toBe(200);
  return (await response.json()) as SessionRootsResponse;
};
const refusal = async (response: Response) => ({
  status: response.status,
  code: ((await response.json()) as { error: { code: string } }).error.code,
});
const atlasSessions = async () => {
  const response = await server.api('/api/atlas/sessions?subagents=true');
  expect(response.status).toBe(200);
  return ((await response.json()) as AtlasSessionsResponse).sessions;
};
const storedRoots = () =>
  existsSync(join(fixtures.weftHome, 'settings.json'))
    ? (JSON.parse(readFileSync(join(fixtures.weftHome, 'settings.json'), 'utf8')) as { sessionRoots?: string[] })
        .sessionRoots
    : undefined;

describe('/api/session-roots', () => {
  it("lists the runners' default folders and Weft's agent lane before anything is chosen", async () => {
    const listed = await roots(await call('GET'));
    expect(listed.source).toBe('defaults');
    expect(listed.roots.map((root) => [root.path, root.kind])).toEqual([
      [join(personHome, '.claude', 'projects'), 'default'],
      [join(personHome, '.codex', 'sessions'), 'default'],
      [join(personHome, '.pi', 'agent', 'sessions'), 'default'],
      [join(fixtures.weftHome, 'agents', 'codex-home', 'sessions'), 'agent-lane'],
    ]);
    expect(listed.roots.every((root) => !root.exists && root.sessions === 0 && root.lastChangeAt === null)).toBe(true);
  });

  it('refuses what is not a real folder apart from Weft and the app, with a code each, and stores nothing', async () => {
    const file = join(fixtures.directory, 'a-file.jsonl');
    writeFileSync(file, '{}\n');
    const insideHome = join(fixtures.weftHome, 'sessions-here');
    mkdirSync(insideHome, { recursive: true });
    const linkIntoHome = join(fixtures.directory, 'looks-harmless');
    symlinkSync(insideHome, linkIntoHome);
    const appFixtures = fileURLToPath(new URL('../../tests/fixtures/real-sessions', import.meta.url));
    const cases: [string, number, string][] = [
      [join(fixtures.directory, 'no-such-folder'), 400, 'session-root-not-found'],
      [file, 400, 'session-root-not-a-folder'],
      ['relative/sessions', 400, 'session-root-not-absolute'],
      [insideHome, 400, 'session-root-in-weft-home'],
      [linkIntoHome, 400, 'session-root-in-weft-home'],
      [fixtures.directory, 400, 'session-root-in-weft-home'],
      [appFixtures, 400, 'session-root-in-app'],
    ];
    for (const [path, status, code] of cases)
      expect(await refusal(await call('POST', path)), path).toEqual({ status, code });
    expect(storedRoots()).toBeUndefined();
    expect((await roots(await call('GET'))).source).toBe('defaults');
  });

  it('adds a folder: it is listed with its runner, session count and last change, and the Atlas lists its sessions without a restart', async () => {
    const before = hashTree(claudeRoot);
    expect((await atlasSessions()).some((session) => session.sourcePath.startsWith(claudeRoot))).toBe(false);

    const added = await roots(await call('POST', claudeRoot));
    expect(added.source).toBe('settings');
    const root = added.roots.find((entry) => entry.path === claudeRoot);
    const listed = (await atlasSessions()).filter((session) => session.sourcePath.startsWith(claudeRoot + '/'));
    const mainSessions = listed.filter((session) => !session.isSubagent);
    expect(mainSessions.length).toBeGreaterThanOrEqual(5);
    expect(root).toMatchObject({
      kind: 'chosen',
      exists: true,
      runners: ['claude-code'],
      sessions: mainSessions.length,
    });
    expect(root!.lastChangeAt).toBeGreaterThan(0);
    // The defaults stay chosen beside it (a first add starts from the list shown).
    expect(storedRoots()).toEqual([
      join(personHome, '.claude', 'projects'),
      join(personHome, '.codex', 'sessions'),
      join(personHome, '.pi', 'agent', 'sessions'),
      claudeRoot,
    ]);
    expect(await refusal(await call('POST', claudeRoot))).toEqual({ status: 409, code: 'session-root-duplicate' });
    // A session opens through the fence over the new root.
    const opened = await server.api(`/api/atlas/sessions/${encodeURIComponent(mainSessions[0]!.sessionId)}`);
    expect(opened.status).toBe(200);
    expect(hashTree(claudeRoot)).toEqual(before);
  });

  it('removes a folder: its sessions leave the Atlas (not kept as deleted), the files stay as they were', async () => {
    const before = hashTree(claudeRoot);
    const after = await roots(await call('DELETE', claudeRoot));
    expect(after.roots.map((root) => root.path)).not.toContain(claudeRoot);
    expect((await atlasSessions()).filter((session) => session.sourcePath.startsWith(claudeRoot))).toEqual([]);
    expect(storedRoots()).not.toContain(claudeRoot);
    expect(await refusal(await call('DELETE', claudeRoot))).toEqual({ status: 404, code: 'session-root-not-listed' });
    expect(await refusal(await call('DELETE', join(fixtures.weftHome, 'agents', 'codex-home', 'sessions')))).toEqual({
      status: 400,
      code: 'session-root-weft-own',
    });
    expect(hashTree(claudeRoot)).toEqual(before);
  });

  it('WEFT_SESSION_ROOTS overrides Settings: the roots are its own, read-only, and changes are refused', async () => {
    const piRoot = fixtures.roots.find((root) => root.includes(`${join('pi', 'basic-tools')}`))!;
    put('WEFT_SESSION_ROOTS', piRoot);
    try {
      const listed = await roots(await call('GET'));
      expect(listed.source).toBe('environment');
      expect(listed.roots).toEqual([
        expect.objectContaining({ path: resolve(piRoot), kind: 'environment', runners: ['pi'], sessions: 1 }),
      ]);
      expect(await refusal(await call('POST', claudeRoot))).toEqual({ status: 409, code: 'session-roots-overridden' });
      expect(await refusal(await call('DELETE', piRoot))).toEqual({ status: 409, code: 'session-roots-overridden' });
      expect((await atlasSessions()).every((session) => session.sourcePath.startsWith(piRoot))).toBe(true);
    } finally {
      put('WEFT_SESSION_ROOTS', undefined);
    }
    expect((await roots(await call('GET'))).source).toBe('settings');
  });
});
