import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument } from '../../../protocol/index.ts';
import { sampleCanvas } from '../../../tests/support/sample-canvas.ts';
import { startTestServer, type TestServer } from '../../../tests/support/test-server.ts';
import { createApiClient } from './api-client.ts';

// The page's client against a real server: it reads canvas records streamed one per line and saves an edit based
// on the revision it read as a PATCH of that record alone.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

function bigCanvas(id: string, count: number): CanvasDocument {
  const document = sampleCanvas(id, 'Big');
  const note = document.nodes[0]!;
  const notes = Array.from({ length: count }, (_, index) => ({
    ...note,
    id: `note-${index + 2}`,
    text: `Note ${index} `.padEnd(400, '.'),
  }));
  return { ...document, nodes: [...document.nodes, ...notes] };
}

async function create(document: CanvasDocument): Promise<void> {
  const response = await server.api(`/api/canvases/${document.canvas.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  expect(response.status).toBe(200);
}

async function stored(id: string): Promise<CanvasDocument> {
  return (await (await server.api(`/api/canvases/${id}`)).json()) as CanvasDocument;
}

describe('saved copies: saves send only what changed', () => {
  it('the page client reads records streamed one per line and then saves an edit as a small PATCH', async () => {
    const document = bigCanvas('client', 800);
    await create(document);
    const sent: { method: string; bytes: number }[] = [];
    const realFetch = globalThis.fetch;
    const client = createApiClient({ baseUrl: server.origin, token: server.token });
    globalThis.fetch = (input, init) => {
      sent.push({ method: init?.method ?? 'GET', bytes: typeof init?.body === 'string' ? init.body.length : 0 });
      return realFetch(input, init);
    };
    try {
      const read = await client.readCanvas('client');
      expect(read.document).toEqual(document);
      const edited = {
        ...read.document,
        nodes: read.document.nodes.map((node, index) => (index === 0 ? { ...node, text: 'x' } : node)),
      } as CanvasDocument;
      const saved = await client.putCanvas(edited, { baseRevision: read.revision });
      expect(sent.at(-1)!.method).toBe('PATCH');
      expect(sent.at(-1)!.bytes).toBeLessThan(2_000);
      expect(JSON.stringify(document).length).toBeGreaterThan(300_000);
      // A save based on a revision the client never saw goes whole.
      await expect(client.putCanvas(edited, { baseRevision: 'b'.repeat(64) })).rejects.toMatchObject({
        code: 'revision-conflict',
      });
      expect(sent.at(-1)!.method).toBe('PUT');
      expect(await stored('client')).toEqual(edited);
      expect(saved.revision).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('a page-hide save of a large canvas goes as keepalive when its PATCH fits, as a normal request when whole', async () => {
    const document = bigCanvas('hidden', 800);
    await create(document);
    const sent: { method: string; keepalive: boolean }[] = [];
    const realFetch = globalThis.fetch;
    const client = createApiClient({ baseUrl: server.origin, token: server.token });
    globalThis.fetch = (input, init) => {
      sent.push({ method: init?.method ?? 'GET', keepalive: init?.keepalive === true });
      return realFetch(input, init);
    };
    try {
      const read = await client.readCanvas('hidden');
      const edit = (text: string) =>
        ({
          ...read.document,
          nodes: read.document.nodes.map((node, index) => (index === 0 ? { ...node, text } : node)),
        }) as CanvasDocument;
      const saved = await client.putCanvas(edit('x'), { baseRevision: read.revision, keepalive: true });
      // A browser would refuse (or drop) a keepalive body over 64 KiB: the whole 300 KB record is never sent so.
      expect(sent.at(-1)).toEqual({ method: 'PATCH', keepalive: true });
      await expect(
        client.putCanvas(edit('y'), { baseRevision: 'b'.repeat(64), keepalive: true }),
      ).rejects.toMatchObject({ code: 'revision-conflict' });
      expect(sent.at(-1)).toEqual({ method: 'PUT', keepalive: false });
      expect(saved.revision).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
