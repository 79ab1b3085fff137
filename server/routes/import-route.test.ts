import { mkdir, mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CanvasListResponseSchema,
  DocumentMaterialResponseSchema,
  ImportStatusSchema,
  type ImportStatus,
  type StreamEvent,
} from '../../protocol/index.ts';
import { readStreamEvents, startTestServer, type TestServer } from '../../tests/support/index.ts';
import { writeSyntheticChatgptExport } from '../../tests/support/synthetic-chatgpt-export.ts';

const FIXTURES = join(import.meta.dirname, '../../tests/fixtures/imports');

let server: TestServer;
let events: StreamEvent[];
let stopEvents: AbortController;
beforeEach(async () => {
  server = await startTestServer();
  events = [];
  stopEvents = new AbortController();
  const stream = await server.api('/api/stream', { signal: stopEvents.signal });
  void (async () => {
    try {
      for await (const event of readStreamEvents(stream)) events.push(event);
    } catch {
      /* closed at the end of the test */
    }
  })();
});
afterEach(async () => {
  stopEvents.abort();
  await server.dispose();
});

async function upload(body: BodyInit, name: string): Promise<ImportStatus> {
  const response = await server.api(`/api/imports/conversations?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  expect(response.status).toBe(202);
  return ImportStatusSchema.parse(await response.json());
}

async function settled(importId: string): Promise<ImportStatus> {
  for (;;) {
    const status = ImportStatusSchema.parse(await (await server.api(`/api/imports/${importId}`)).json());
    if (status.state !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const listed = async () => CanvasListResponseSchema.parse(await (await server.api('/api/canvases')).json()).canvases;

describe('POST /api/imports/conversations', () => {
  it('imports an export in the background, reporting progress and each new canvas on /api/stream', async () => {
    const started = await upload(await readFile(join(FIXTURES, 'chatgpt-conversations.json')), 'conversations.json');
    expect(started).toMatchObject({ state: 'running', fileName: 'conversations.json' });
    const done = await settled(started.importId);
    expect(done).toMatchObject({ state: 'done', conversations: 2, error: null });
    expect(done.canvasIds).toHaveLength(2);
    expect((await listed()).map((canvas) => canvas.name).sort()).toEqual([
      'Capital of Australia',
      'Sourdough starter troubleshooting',
    ]);
    await expect.poll(() => events.filter((event) => event.type === 'canvas-changed').length).toBe(2);
    const progress = events.filter((event) => event.type === 'import-progress');
    expect(progress.some((event) => event.phase === 'reading')).toBe(true);
    expect(progress.at(-1)).toMatchObject({ state: 'done', importId: started.importId });
    // The upload and the staging are gone; only the records stay.
    expect(await readdir(join(server.home, 'imports'))).toEqual([]);
  });

  it('refuses a malformed export with its line and column, and stores nothing', async () => {
    const started = await upload(await readFile(join(FIXTURES, 'chatgpt-malformed.json')), 'bad.json');
    const failed = await settled(started.importId);
    expect(failed).toMatchObject({
      state: 'failed',
      canvasIds: [],
      error: { code: 'import-malformed', line: 265, column: 5 },
    });
    expect(await listed()).toEqual([]);
    expect(events.some((event) => event.type === 'canvas-changed')).toBe(false);
  });

  it('can be cancelled while it runs: no canvas of it is kept', async () => {
    const file = join(server.home, 'big.json');
    await writeSyntheticChatgptExport(file, { targetBytes: 8 * 1024 * 1024 });
    const started = await upload(await readFile(file), 'big.json');
    const cancel = await server.api(`/api/imports/${started.importId}`, { method: 'DELETE' });
    expect(cancel.status).toBe(200);
    const ended = await settled(started.importId);
    expect(ended).toMatchObject({ state: 'cancelled', error: { code: 'import-cancelled' } });
    expect(await listed()).toEqual([]);
  });

  it('is known and cancellable while its upload still runs: the stream names it, Cancel stops the upload', async () => {
    let finish = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('[{"title": "half'));
        finish = () => controller.close();
      },
    });
    const posted = server.api('/api/imports/conversations?name=slow.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    await expect.poll(() => events.find((event) => event.type === 'import-progress')).toBeDefined();
    const first = events.find((event) => event.type === 'import-progress')!;
    expect(first).toMatchObject({ state: 'running', phase: 'uploading', fileName: 'slow.json' });
    const importId = (first as ImportStatus).importId;
    expect((await server.api(`/api/imports/${importId}`, { method: 'DELETE' })).status).toBe(200);
    finish();
    const response = await posted.catch(() => null);
    if (response) expect(response.status).toBe(409);
    expect(await settled(importId)).toMatchObject({ state: 'cancelled', error: { code: 'import-cancelled' } });
    await expect.poll(() => readdir(join(server.home, 'imports'))).toEqual([]);
    expect(await listed()).toEqual([]);
  });

  it('sweeps staging an earlier server left behind, and keeps recent files', async () => {
    const home = await mkdtemp(join(tmpdir(), 'weft-import-sweep-'));
    const imports = join(home, 'imports');
    await mkdir(join(imports, 'old-import'), { recursive: true });
    await writeFile(join(imports, 'old-import', 'canvas.json'), '{}');
    await writeFile(join(imports, 'old.upload.json'), '[');
    await writeFile(join(imports, 'recent.upload.json'), '[');
    const hourAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await utimes(join(imports, 'old-import'), hourAgo, hourAgo);
    await utimes(join(imports, 'old.upload.json'), hourAgo, hourAgo);
    const swept = await startTestServer({ home });
    try {
      await expect.poll(() => readdir(imports)).toEqual(['recent.upload.json']);
    } finally {
      await swept.dispose();
    }
  });

  it('needs the token like every API route', async () => {
    const response = await fetch(`${server.origin}/api/imports/conversations`, { method: 'POST', body: '[]' });
    expect(response.status).toBe(401);
  });
});

describe('POST /api/materials/document', () => {
  it('reads a DOCX into material text with its provenance', async () => {
    const response = await server.api('/api/materials/document?name=field-notes.docx', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: await readFile(join(FIXTURES, 'field-notes.docx')),
    });
    expect(response.status).toBe(200);
    const material = DocumentMaterialResponseSchema.parse(await response.json());
    expect(material.text).toContain('The brood pattern was solid on six frames.');
    expect(material.provenance).toMatchObject({ type: 'file', format: 'docx', fileName: 'field-notes.docx' });
  });

  it('refuses a file type it does not read', async () => {
    const response = await server.api('/api/materials/document?name=photo.png', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array([137, 80, 78, 71]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'import-unsupported-file' } });
  });
});
