import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument, QuestionNode } from '../../../protocol/canvas-document.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { loadCanvasDocument, persistenceCounters } from './canvas-persistence.ts';
import { recordsFromDocument, type CanvasRecords } from './canvas-records.ts';
import { CanvasWriter } from './canvas-writer.ts';
import { WeftDatabase } from './weft-database.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const question = (id: string, text: string): QuestionNode => ({
  id,
  kind: 'question',
  createdAt: 1,
  position: { x: 0, y: 0 },
  size: null,
  archived: false,
  archivedAt: null,
  excludedParts: [],
  question: text,
  versions: [],
  currentVersionId: null,
  autoRerun: { enabled: false, rounds: 1 },
  model: null,
  attachments: [],
});

const document: CanvasDocument = {
  format: 'weft.canvas',
  version: 4,
  canvas: { id: 'writer-test', name: 'Writer', workingDirectory: null, createdAt: 1 },
  nodes: [question('a', 'First?')],
  wires: [],
  attachments: [],
  dismissals: [],
  ledgers: [],
  events: [],
};

// The durable record over plain HTTP: the db folder sits below the renderer's API client (docs/architecture.md).
async function putCanvas(next: CanvasDocument, baseRevision: string | null): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (baseRevision) headers['if-match'] = `"${baseRevision}"`;
  const response = await server.api(`/api/canvases/${next.canvas.id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify(next),
  });
  if (!response.ok) throw new Error(`PUT ${next.canvas.id}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { revision: string }).revision;
}

async function getCanvas(id: string): Promise<CanvasDocument> {
  return (await (await server.api(`/api/canvases/${id}`)).json()) as CanvasDocument;
}

describe('CanvasWriter', () => {
  it('coalesces a burst of edits into one IndexedDB write and one durable PUT; flush writes at once', async () => {
    const database = new WeftDatabase(`writer-${Math.random()}`);
    let puts = 0;
    let revision: string | null = null;
    const errors: unknown[] = [];
    const writer = new CanvasWriter({
      database,
      now: () => 1000,
      onError: (error) => errors.push(error),
      putDurable: async (next) => {
        puts += 1;
        revision = await putCanvas(next, revision);
      },
      localDelayMs: 40,
      durableDelayMs: 80,
    });
    let records: CanvasRecords = recordsFromDocument(document);
    writer.schedule(records);
    await writer.flush();
    const flushesBefore = persistenceCounters.flushes;
    const putsBefore = puts;
    for (const text of ['Second?', 'Third?', 'Fourth?']) {
      records = { ...records, nodes: [question('a', text)] };
      writer.schedule(records);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writer.flushLocal();
    expect(persistenceCounters.flushes - flushesBefore).toBe(1);
    expect(puts - putsBefore).toBe(1);
    expect(((await loadCanvasDocument(database, 'writer-test'))!.nodes[0] as QuestionNode).question).toBe('Fourth?');
    // The debounced PUT may still be on the wire under load: wait for it, bounded.
    let durable = await getCanvas('writer-test');
    for (let tries = 0; tries < 50 && (durable.nodes[0] as QuestionNode).question !== 'Fourth?'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      durable = await getCanvas('writer-test');
    }
    expect((durable.nodes[0] as QuestionNode).question).toBe('Fourth?');

    records = { ...records, nodes: [question('a', 'Fifth?')] };
    writer.schedule(records);
    await writer.flush();
    expect(writer.hasPending()).toBe(false);
    expect(((await getCanvas('writer-test')).nodes[0] as QuestionNode).question).toBe('Fifth?');
    expect(errors).toEqual([]);
    database.close();
  });
});
