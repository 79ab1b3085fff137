import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeAtomicFileSystem, type AtomicFileSystem } from '../../runtime/fs/atomic-write.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
let sessionRoot: string;
const savedRoots = process.env.WEFT_SESSION_ROOTS;

beforeAll(async () => {
  sessionRoot = await mkdtemp(join(tmpdir(), 'weft-session-root-'));
  process.env.WEFT_SESSION_ROOTS = sessionRoot;
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
  await rm(sessionRoot, { recursive: true, force: true });
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});

const put = (body: unknown) =>
  server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('PUT /api/settings', () => {
  it('stores a key write-only: the answer says hasKey, never the key', async () => {
    const response = await put({
      providers: [
        {
          id: 'local',
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKey: 'sk-settings-test-key',
          models: ['m'],
        },
      ],
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('sk-settings-test-key');
    expect(JSON.parse(text).providers).toContainEqual(expect.objectContaining({ id: 'local', hasKey: true }));
  });

  it('refuses a backup folder that is relative, inside a session root or inside its own records, and keeps the previous one', async () => {
    const chosen = join(tmpdir(), 'weft-backup-chosen');
    expect((await put({ backupFolder: chosen })).status).toBe(200);
    for (const folder of [
      'backups',
      sessionRoot,
      join(sessionRoot, 'project', 'backup'),
      join(server.home, 'canvases'),
    ]) {
      const response = await put({ backupFolder: folder });
      expect(response.status, folder).toBe(400);
      expect((await response.json()).error.code).toBe(folder === 'backups' ? 'invalid-body' : 'backup-folder-refused');
    }
    expect((await (await server.api('/api/settings')).json()).backupFolder).toBe(chosen);
  });
});

describe('PUT /api/settings is all or nothing', () => {
  let faulty: TestServer;
  /** File names whose atomic rename fails, as a full disk or a revoked permission would make it. */
  const failing = new Set<string>();
  const fileSystem: AtomicFileSystem = {
    ...nodeAtomicFileSystem,
    async rename(from, to) {
      if (failing.has(basename(to)))
        throw Object.assign(new Error(`injected failure writing ${basename(to)}`), { code: 'EIO' });
      await nodeAtomicFileSystem.rename(from, to);
    },
  };
  const putFaulty = (body: unknown) =>
    faulty.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const provider = (id: string, apiKey: string) => ({
    id,
    kind: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey,
    models: ['m'],
  });

  beforeAll(async () => {
    faulty = await startTestServer({ fileSystem });
    failing.clear();
    expect((await putFaulty({ providers: [provider('kept', 'sk-kept-key')], judgeModelId: 'kept:m' })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await faulty.dispose();
  });

  it('a failed settings write stores no key', async () => {
    failing.add('settings.json');
    try {
      const response = await putFaulty({ providers: [provider('fresh', 'sk-fresh-key')], judgeModelId: 'fresh:m' });
      expect(response.status).toBeGreaterThanOrEqual(500);
    } finally {
      failing.clear();
    }
    const secrets = JSON.parse(await readFile(join(faulty.home, 'secrets.json'), 'utf8'));
    expect(secrets.keys).toEqual({ kept: 'sk-kept-key' });
    const settings = await (await faulty.api('/api/settings')).json();
    expect(settings.providers.map((entry: { id: string }) => entry.id)).toEqual(['kept']);
    expect(settings.judgeModelId).toBe('kept:m');
  });

  it('a failed key write puts the previous settings back', async () => {
    failing.add('secrets.json');
    try {
      const response = await putFaulty({
        providers: [provider('fresh', 'sk-fresh-key'), provider('kept', 'sk-replaced-key')],
        judgeModelId: 'fresh:m',
        defaultModelId: 'fresh:m',
      });
      expect(response.status).toBeGreaterThanOrEqual(500);
    } finally {
      failing.clear();
    }
    const secrets = JSON.parse(await readFile(join(faulty.home, 'secrets.json'), 'utf8'));
    expect(secrets.keys).toEqual({ kept: 'sk-kept-key' });
    const settings = await (await faulty.api('/api/settings')).json();
    expect(settings.providers).toEqual([expect.objectContaining({ id: 'kept', hasKey: true })]);
    expect(settings.judgeModelId).toBe('kept:m');
    expect(settings.defaultModelId).toBeNull();
  });
});
