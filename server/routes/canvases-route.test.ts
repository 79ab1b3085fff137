import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANVAS_VERSION } from '../../protocol/canvas-document.ts';
import { storedCanvasDocument } from '../../protocol/canvas-stored-form.ts';
import type { EventRecord } from '../../protocol/event-record.ts';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { appendEvent } from '../../src/core/event-log.ts';
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

/** PUT based on `revision` (the record's current one when not given; none for a new record). */
async function put(id: string, body: unknown, revision?: string | null): Promise<Response> {
  const base = revision === undefined ? await currentRevision(id) : revision;
  return server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(base ? { 'if-match': `"${base}"` } : {}) },
    body: JSON.stringify(body),
  });
}

async function currentRevision(id: string): Promise<string | null> {
  const response = await server.api(`/api/canvases/${id}`);
  if (response.status === 404) return null;
  return /^"([0-9a-f]{64})"$/.exec(response.headers.get('etag') ?? '')![1]!;
}

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
    expect(savedBody).toEqual({
      ok: true,
      updatedAt: expect.any(Number),
      revision: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
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
      { type: 'canvas-changed', id: 'first', revision: savedBody.revision },
      // Deleting puts its turns' words aside, journaled in memory's journal (issue 29.2) before the record goes.
      { type: 'memory-changed', revision: expect.any(String) },
      { type: 'canvas-deleted', id: 'first' },
    ]);
  });

  it('refuses a corrupt or foreign document and keeps the stored one', async () => {
    await put('kept', sampleCanvas('kept', 'Kept'));
    const before = await readFile(join(server.home, 'canvases', 'kept.weft.json'), 'utf8');
    const broken = sampleCanvas('kept') as unknown as { nodes: { kind: string }[] };
    broken.nodes[0]!.kind = 'spaceship';
    for (const body of [{ some: 'other app' }, broken]) {
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
    expect(await migrated.json()).toMatchObject({
      version: CANVAS_VERSION,
      dismissals: [],
      ledgers: [],
      canvas: { id: 'draft' },
    });

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

  it('keeps a concurrent burst of saves to one canvas whole: one is stored, every other is refused with 409', async () => {
    expect((await put('burst', sampleCanvas('burst', 'Burst', 'base'))).status).toBe(200);
    const base = await currentRevision('burst');
    const saves = Array.from({ length: 25 }, (_, index) =>
      put('burst', sampleCanvas('burst', 'Burst', `version ${index}`), base),
    );
    const responses = await Promise.all(saves);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(24);
    const refused = await responses.find((response) => response.status === 409)!.json();
    expect(refused.error.code).toBe('revision-conflict');
    const winner = responses.findIndex((response) => response.status === 200);
    const stored = JSON.parse(await readFile(join(server.home, 'canvases', 'burst.weft.json'), 'utf8'));
    // The file holds the stored form (version 4).
    expect(stored).toEqual(storedCanvasDocument(sampleCanvas('burst', 'Burst', `version ${winner}`)));
    expect((await readdir(join(server.home, 'canvases'))).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('a save from a stale copy never deletes the edit saved before it', async () => {
    await put('stale', sampleCanvas('stale', 'Stale', 'base'));
    const base = await currentRevision('stale');
    expect((await put('stale', sampleCanvas('stale', 'Stale', 'edit from tab one'), base)).status).toBe(200);
    const late = await put('stale', sampleCanvas('stale', 'Stale', 'edit from tab two'), base);
    expect(late.status).toBe(409);
    expect((await late.json()).error.code).toBe('revision-conflict');
    const read = await (await server.api('/api/canvases/stale')).json();
    expect(read.nodes[0].text).toBe('edit from tab one');
    // Without If-Match on an existing record: also refused.
    expect((await put('stale', sampleCanvas('stale'), null)).status).toBe(409);
    const badHeader = await server.api('/api/canvases/stale', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': 'whatever' },
      body: JSON.stringify(sampleCanvas('stale')),
    });
    expect(badHeader.status).toBe(400);
  });

  it('refuses a PUT that truncates the stored event log, and verify names what is missing', async () => {
    const events: EventRecord[] = [];
    for (let index = 0; index < 4; index += 1)
      events.push(
        appendEvent(
          events,
          { op: 'edit', objectId: 'note-1', meta: {} },
          { now: 1000 + index, newId: () => `ev-${index}` },
        ),
      );
    const full = { ...sampleCanvas('logged'), events };
    expect((await put('logged', full)).status).toBe(200);
    const truncated = await put('logged', { ...full, events: events.slice(0, 3) });
    expect(truncated.status).toBe(409);
    expect((await truncated.json()).error).toMatchObject({
      code: 'event-log-rewrite',
      message: expect.stringContaining('1 stored event is missing at the end'),
    });
    expect(await (await server.api('/api/canvases/logged/verify')).json()).toEqual({
      id: 'logged',
      verdict: { status: 'intact', eventCount: 4, anchored: true },
      head: { eventCount: 4, lastEventHash: events[3]!.hash },
      recreatedAfter: null,
    });
    // The file edited behind the server's back: verify says how many events are gone.
    await writeFile(
      join(server.home, 'canvases', 'logged.weft.json'),
      JSON.stringify({ ...full, events: events.slice(0, 1) }),
    );
    expect((await (await server.api('/api/canvases/logged/verify')).json()).verdict).toEqual({
      status: 'missing-at-end',
      eventCount: 1,
      missing: 3,
    });
  });

  it('answers a newer format version with 409 newer-version on PUT, as import does', async () => {
    const response = await put('newer', { ...sampleCanvas('newer'), version: 7 }, null);
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('newer-version');
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
