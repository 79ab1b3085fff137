import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CanvasDocument, CanvasNode, QuestionNode } from '../../../protocol/canvas-document.ts';
import { WeftDatabase } from './weft-database.ts';
import { deleteCanvasRows, loadCanvasDocument, writeCanvasChanges, persistenceCounters } from './canvas-persistence.ts';
import { recordsFromDocument, type CanvasRecords } from './canvas-records.ts';

const hash = (digit: string) => digit.repeat(64);

function question(id: string, text: string, createdAt: number): QuestionNode {
  return {
    id,
    kind: 'question',
    createdAt,
    position: { x: createdAt, y: 0 },
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
  };
}

function documentWith(nodes: CanvasNode[]): CanvasDocument {
  return {
    format: 'weft.canvas',
    version: 4,
    canvas: { id: 'c1', name: 'Test', workingDirectory: null, createdAt: 1 },
    nodes,
    wires: [{ id: 'w1', from: 'a', to: 'b', createdAt: 3, kind: 'solid' }],
    attachments: [{ hash: hash('a'), mediaType: 'image/png', name: 'x.png', byteLength: 3, dataBase64: 'AAAA' }],
    dismissals: [],
    ledgers: [],
    events: [{ id: 'e1', at: 1, op: 'create', objectId: 'a', meta: {}, prevHash: '', hash: hash('b') }],
  };
}

let database: WeftDatabase;
afterEach(async () => {
  await database?.delete();
});

describe('canvas persistence on IndexedDB', () => {
  it('writes every row on first save and restores the same document', async () => {
    database = new WeftDatabase('t-' + Math.random());
    const document = documentWith([question('a', 'What?', 1), question('b', 'Why?', 2)]);
    const written = await writeCanvasChanges(database, null, recordsFromDocument(document), 100);
    expect(written).toBe(1 + 2 + 1 + 1 + 1);
    const reopened = new WeftDatabase(database.name);
    expect(await loadCanvasDocument(reopened, 'c1')).toEqual(document);
    reopened.close();
  });

  it('a question edit writes only the touched node, its event and the canvas row', async () => {
    database = new WeftDatabase('t-' + Math.random());
    const first = recordsFromDocument(documentWith([question('a', 'What?', 1), question('b', 'Why?', 2)]));
    await writeCanvasChanges(database, null, first, 100);
    const nodes = [...first.nodes];
    const edited: CanvasRecords = {
      ...first,
      nodes: [nodes[0]!, { ...(nodes[1] as QuestionNode), question: 'Why not?' }],
      events: [
        ...first.events,
        { id: 'e2', at: 2, op: 'edit', objectId: 'b', meta: {}, prevHash: hash('b'), hash: hash('c') },
      ],
    };
    const before = persistenceCounters.rowsWritten;
    const written = await writeCanvasChanges(database, first, edited, 200);
    expect(written).toBe(3);
    expect(persistenceCounters.rowsWritten - before).toBe(3);
    const loaded = await loadCanvasDocument(database, 'c1');
    expect((loaded!.nodes[1] as QuestionNode).question).toBe('Why not?');
    expect(loaded!.events.map((event) => event.id)).toEqual(['e1', 'e2']);
  });

  it('removing a node deletes its row; deleting the canvas keeps attachments another canvas shares', async () => {
    database = new WeftDatabase('t-' + Math.random());
    const first = recordsFromDocument(documentWith([question('a', 'What?', 1), question('b', 'Why?', 2)]));
    await writeCanvasChanges(database, null, first, 100);
    await writeCanvasChanges(database, first, { ...first, nodes: [[...first.nodes][0]!] }, 200);
    expect((await loadCanvasDocument(database, 'c1'))!.nodes.map((node) => node.id)).toEqual(['a']);
    const other = recordsFromDocument({
      ...documentWith([]),
      canvas: { id: 'c2', name: 'Other', workingDirectory: null, createdAt: 5 },
    });
    await writeCanvasChanges(database, null, other, 300);
    await deleteCanvasRows(database, 'c1');
    expect(await loadCanvasDocument(database, 'c1')).toBeNull();
    expect(await database.packs.where('canvasId').equals('c1').count()).toBe(0);
    expect((await loadCanvasDocument(database, 'c2'))!.attachments).toHaveLength(1);
  });

  it('adopting a record without some local events removes their rows, so a reload reads exactly that log', async () => {
    database = new WeftDatabase('t-' + Math.random());
    const local = documentWith([question('a', 'A?', 1), question('b', 'B?', 2)]);
    const unsaved = { id: 'e2', at: 2, op: 'edit', objectId: 'a', meta: {}, prevHash: hash('b'), hash: hash('c') };
    const withUnsaved = { ...local, events: [...local.events, unsaved] };
    await writeCanvasChanges(database, null, recordsFromDocument(withUnsaved), 1);
    // The newer durable record (another tab's) holds a different second event.
    const theirs = { ...unsaved, id: 'e3', hash: hash('d') };
    const remote = { ...local, events: [...local.events, theirs] };
    await writeCanvasChanges(database, recordsFromDocument(withUnsaved), recordsFromDocument(remote), 2);
    expect((await loadCanvasDocument(database, 'c1'))!.events.map((event) => event.id)).toEqual(['e1', 'e3']);
  });
});
