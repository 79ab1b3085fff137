import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canvasPatchBetween, type CanvasDocument, type CanvasPatch } from '../../protocol/index.ts';
import { appendEvent } from '../../src/core/event-log.ts';
import { sampleCanvas } from '../../tests/support/sample-canvas.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

const clock = { now: 5, newId: () => `e${(clock.now += 1)}` };

/** The sample canvas plus `count` more notes, so the canvas is much larger than one change. */
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

async function create(document: CanvasDocument): Promise<string> {
  const response = await server.api(`/api/canvases/${document.canvas.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { revision: string }).revision;
}

function patch(id: string, body: CanvasPatch | null, revision: string): Promise<Response> {
  return server.api(`/api/canvases/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'if-match': `"${revision}"` },
    body: JSON.stringify(body),
  });
}

async function stored(id: string): Promise<CanvasDocument> {
  return (await (await server.api(`/api/canvases/${id}`)).json()) as CanvasDocument;
}

describe('saving only what changed (PATCH /api/canvases/:id)', () => {
  it('applies one edited record and an appended event, keeping every other record', async () => {
    const before = bigCanvas('patched', 500);
    const revision = await create(before);
    const edited = { ...before.nodes[3]!, text: 'edited' } as CanvasDocument['nodes'][number];
    const event = appendEvent(before.events, { op: 'edit', objectId: edited.id, meta: { kind: 'note' } }, clock);
    const after = {
      ...before,
      nodes: before.nodes.map((node, index) => (index === 3 ? edited : node)),
      events: [event],
    };
    const body = canvasPatchBetween(before, after)!;
    expect(body.put.nodes).toEqual([edited]);
    const response = await patch('patched', body, revision);
    expect(response.status).toBe(200);
    expect(JSON.stringify(body).length).toBeLessThan(JSON.stringify(after).length / 50);
    expect(await stored('patched')).toEqual(after);
  });

  it('refuses a stale base, a wire to a missing node and an event that does not chain, writing nothing', async () => {
    const before = bigCanvas('guarded', 3);
    const revision = await create(before);
    const dangling = canvasPatchBetween(before, {
      ...before,
      wires: [...before.wires, { id: 'w9', from: 'note-1', to: 'nowhere', createdAt: 9, kind: 'solid' }],
    })!;
    const refused = await patch('guarded', dangling, revision);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid-canvas' } });

    const event = appendEvent(before.events, { op: 'edit', objectId: 'note-1', meta: {} }, clock);
    const unchained = canvasPatchBetween(before, { ...before, events: [{ ...event, prevHash: 'f'.repeat(64) }] })!;
    const rewrite = await patch('guarded', unchained, revision);
    expect(rewrite.status).toBe(409);
    expect(await rewrite.json()).toMatchObject({ error: { code: 'event-log-rewrite' } });

    const renamed = canvasPatchBetween(before, { ...before, canvas: { ...before.canvas, name: 'Renamed' } })!;
    const stale = await patch('guarded', renamed, 'a'.repeat(64));
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: { code: 'revision-conflict' } });
    expect(await stored('guarded')).toEqual(before);

    const missingBase = await server.api('/api/canvases/guarded', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(renamed),
    });
    expect(missingBase.status).toBe(400);
  });
});
