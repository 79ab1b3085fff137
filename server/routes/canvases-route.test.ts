import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { sampleCanvas } from '../../tests/support/sample-canvas.ts';
import { readStreamEvents } from '../../tests/support/sse-client.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
let backupFolder: string;

beforeAll(async () => {
  server = await startTestServer();
  backupFolder = await mkdtemp(join(tmpdir(), 'weft-backup-'));
});
afterAll(async () => {
  await server.dispose();
  await rm(backupFolder, { recursive: true, force: true });
});

const put = (id: string, body: unknown) =>
  server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('canvas records over HTTP', () => {
  it('writes, lists, reads and deletes a record, pushing canvas events', async () => {
    const controller = new AbortController();
    const pushes: StreamEvent[] = [];
    const streamResponse = await server.api('/api/stream', { signal: controller.signal });
    const reading = (async () => {
      try {
        for await (const event of readStreamEvents(streamResponse)) pushes.push(event);
      } catch {
        /* aborted */
      }
    })();

    const saved = await put('first', sampleCanvas('first', 'First canvas'));
    expect(saved.status).toBe(200);
    const savedBody = await saved.json();
    expect(savedBody).toEqual({ ok: true, updatedAt: expect.any(Number) });
    const stored = JSON.parse(await readFile(join(server.home, 'canvases', 'first.weft.json'), 'utf8'));
    expect(stored.canvas.name).toBe('First canvas');

    const list = await (await server.api('/api/canvases')).json();
    expect(list.canvases).toEqual([
      { id: 'first', name: 'First canvas', updatedAt: savedBody.updatedAt, nodeCount: 2 },
    ]);
    const read = await (await server.api('/api/canvases/first')).json();
    expect(read).toEqual(sampleCanvas('first', 'First canvas'));

    const removed = await server.api('/api/canvases/first', { method: 'DELETE' });
    expect(await removed.json()).toEqual({ ok: true });
    expect((await server.api('/api/canvases/first')).status).toBe(404);
    expect((await server.api('/api/canvases/first', { method: 'DELETE' })).status).toBe(404);

    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await reading;
    expect(pushes).toEqual([
      { type: 'canvas-changed', id: 'first' },
      { type: 'canvas-deleted', id: 'first' },
    ]);
  });

  it('refuses a corrupt or foreign document and keeps the stored one', async () => {
    await put('kept', sampleCanvas('kept', 'Kept'));
    const before = await readFile(join(server.home, 'canvases', 'kept.weft.json'), 'utf8');
    const broken = sampleCanvas('kept') as unknown as { nodes: { kind: string }[] };
    broken.nodes[0]!.kind = 'spaceship';
    for (const body of [{ some: 'other app' }, broken, { ...sampleCanvas('kept'), version: 7 }]) {
      const response = await put('kept', body);
      expect(response.status).toBe(400);
      const error = (await response.json()).error;
      expect(error.code).toBe('invalid-canvas');
      expect(error.message.length).toBeGreaterThan(20);
    }
    expect(await readFile(join(server.home, 'canvases', 'kept.weft.json'), 'utf8')).toBe(before);
  });

  it('imports: migrates an older draft, refuses foreign and newer files, stores nothing', async () => {
    const draft = sampleCanvas('draft') as unknown as Record<string, unknown>;
    const { dismissals: _dismissals, ledgers: _ledgers, events, ...rest } = draft;
    const older = { ...rest, version: 0, log: events };
    const migrated = await server.api('/api/canvases/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(older),
    });
    expect(migrated.status).toBe(200);
    expect(await migrated.json()).toMatchObject({ version: 1, dismissals: [], ledgers: [], canvas: { id: 'draft' } });

    const foreign = await server.api('/api/canvases/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cells: [] }),
    });
    expect((await foreign.json()).error.code).toBe('invalid-canvas');
    const newer = await server.api('/api/canvases/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...sampleCanvas('n'), version: 99 }),
    });
    expect(newer.status).toBe(409);
    expect((await newer.json()).error).toMatchObject({
      code: 'newer-version',
      message: expect.stringContaining('newer'),
    });
    expect(
      (await readdir(join(server.home, 'canvases'))).filter(
        (name) => name.startsWith('draft') || name.startsWith('n.'),
      ),
    ).toEqual([]);
  });

  it('lists around an unreadable record instead of failing', async () => {
    await writeFile(join(server.home, 'canvases', 'garbage.weft.json'), 'not json');
    const list = await (await server.api('/api/canvases')).json();
    expect(list.canvases.map((canvas: { id: string }) => canvas.id)).not.toContain('garbage');
    const read = await server.api('/api/canvases/garbage');
    expect(read.status).toBe(422);
    expect((await read.json()).error.code).toBe('corrupt-record');
    expect(await readFile(join(server.home, 'canvases', 'garbage.weft.json'), 'utf8')).toBe('not json');
  });

  it('keeps a concurrent burst of saves to one canvas whole: the record is always one complete document', async () => {
    const saves = Array.from({ length: 25 }, (_, index) =>
      put('burst', sampleCanvas('burst', 'Burst', `version ${index}`)),
    );
    const responses = await Promise.all(saves);
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const stored = JSON.parse(await readFile(join(server.home, 'canvases', 'burst.weft.json'), 'utf8'));
    expect(stored.nodes[0].text).toMatch(/^version \d+$/);
    expect(stored).toEqual(sampleCanvas('burst', 'Burst', stored.nodes[0].text));
    expect((await readdir(join(server.home, 'canvases'))).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('backs up to the chosen folder as <name>.weft.json, debounced to the last write', async () => {
    const settings = await server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ backupFolder }),
    });
    expect((await settings.json()).backupFolder).toBe(backupFolder);
    await put('backed', sampleCanvas('backed', 'Project: plan/v2', 'one'));
    await put('backed', sampleCanvas('backed', 'Project: plan/v2', 'two'));
    await server.context.backup.flush();
    expect(await readdir(backupFolder)).toContain('Project- plan-v2.weft.json');
    const backup = JSON.parse(await readFile(join(backupFolder, 'Project- plan-v2.weft.json'), 'utf8'));
    expect(backup.nodes[0].text).toBe('two');
  });

  it('deleting a canvas cancels its pending backup: no backup of it appears afterwards', async () => {
    await server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ backupFolder }),
    });
    expect((await put('doomed', sampleCanvas('doomed', 'Doomed plan', 'draft'))).status).toBe(200);
    expect((await server.api('/api/canvases/doomed', { method: 'DELETE' })).status).toBe(200);
    // Past the debounce (50 ms in tests), then everything still pending is written.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.context.backup.flush();
    expect(await readdir(backupFolder)).not.toContain('Doomed plan.weft.json');
  });
});
