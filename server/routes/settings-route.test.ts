import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const put = (body: unknown) => server.api('/api/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('PUT /api/settings', () => {
  it('stores a key write-only: the answer says hasKey, never the key', async () => {
    const response = await put({ providers: [{ id: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-settings-test-key', models: ['m'] }] });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('sk-settings-test-key');
    expect(JSON.parse(text).providers).toContainEqual(expect.objectContaining({ id: 'local', hasKey: true }));
  });

  it('refuses a backup folder that is relative, inside a session root or inside its own records, and keeps the previous one', async () => {
    const chosen = join(tmpdir(), 'weft-backup-chosen');
    expect((await put({ backupFolder: chosen })).status).toBe(200);
    for (const folder of ['backups', sessionRoot, join(sessionRoot, 'project', 'backup'), join(server.home, 'canvases')]) {
      const response = await put({ backupFolder: folder });
      expect(response.status, folder).toBe(400);
      expect((await response.json()).error.code).toBe('invalid-body');
    }
    expect((await (await server.api('/api/settings')).json()).backupFolder).toBe(chosen);
  });
});
