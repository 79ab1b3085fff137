import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanvasDocument, QuestionNode } from '../../protocol/index.ts';
import { computeStaleFull, compile, graphFromDocument, verifyChain } from '../../src/core/index.ts';
import { CanvasStore } from '../fs/index.ts';
import { nodeHashPort } from '../hash/index.ts';
import { ImportError } from './import-error.ts';
import { importConversations, type ImportProgress } from './import-conversations.ts';

const FIXTURES = join(import.meta.dirname, '../../tests/fixtures/imports');

let home: string;
let store: CanvasStore;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'weft-import-'));
  await mkdir(join(home, 'canvases'));
  store = new CanvasStore({ directory: join(home, 'canvases') });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function run(file: string, extra: { signal?: AbortSignal; onProgress?: (progress: ImportProgress) => void } = {}) {
  let counter = 0;
  return importConversations(file, {
    canvases: store,
    stagingDirectory: join(home, 'imports'),
    importId: 'import-1',
    now: () => 1_800_000_000_000,
    newId: () => `id-${(counter += 1)}`,
    hash: nodeHashPort,
    ...extra,
  });
}

async function storedCanvases(): Promise<CanvasDocument[]> {
  const { canvases } = await store.list();
  return Promise.all(canvases.map(async (summary) => (await store.read(summary.id)).document));
}

const questions = (document: CanvasDocument) =>
  document.nodes.filter((node): node is QuestionNode => node.kind === 'question');
const byQuestion = (document: CanvasDocument, start: string) =>
  questions(document).find((node) => node.question.startsWith(start))!;
const parentsOf = (document: CanvasDocument, nodeId: string) =>
  document.wires.filter((wire) => wire.to === nodeId).map((wire) => wire.from);

describe('ChatGPT conversations.json', () => {
  it('makes one canvas per conversation: questions, replies as versions, regenerations and edits as branches', async () => {
    const result = await run(join(FIXTURES, 'chatgpt-conversations.json'));
    expect(result).toMatchObject({ conversations: 2, questions: 5, versions: 6, forks: 1, sources: { chatgpt: 2 } });
    const documents = await storedCanvases();
    const sourdough = documents.find((document) => document.canvas.name === 'Sourdough starter troubleshooting')!;

    const first = byQuestion(sourdough, 'My starter smells');
    // The image was named in the question, since the model saw it there.
    expect(first.question).toContain('[Attachment: starter-jar.jpg (not in the export)]');
    // Two replies to one message: a regeneration, both kept as versions; the one the conversation went on from is current.
    expect(first.versions.map((version) => version.text.slice(0, 12))).toEqual(['Not dead: an', 'It is alive.']);
    expect(first.versions[1]!.branchOf).toBe(first.versions[0]!.id);
    expect(first.currentVersionId).toBe(first.versions[1]!.id);
    expect(first.versions[0]).toMatchObject({
      origin: 'imported',
      status: 'complete',
      model: 'gpt-4o',
      requestHash: null,
      createdAt: 1717401610250,
    });
    expect(first.createdAt).toBe(1717401601500);

    // An edited follow-up is a sibling message: two questions wired from the same node.
    const original = byQuestion(sourdough, 'How warm is warm?');
    const edited = byQuestion(sourdough, 'What temperature should my kitchen be');
    expect(parentsOf(sourdough, original.id)).toEqual([first.id]);
    expect(parentsOf(sourdough, edited.id)).toEqual([first.id]);
    // The browsing call and its tool output inside that reply are left out; the reply is the text after them.
    expect(edited.versions.map((version) => version.text)).toEqual([
      'Bakers recommend 75–80 °F (24–27 °C); below 21 °C it slows down a lot.',
    ]);
    const last = byQuestion(sourdough, 'Show me a feeding schedule');
    expect(parentsOf(sourdough, last.id)).toEqual([edited.id]);
    expect(last.versions[0]!.model).toBe('gpt-4o-mini');

    // The chain compiles like any other: the last question sees the edited branch, not the other one.
    const graph = graphFromDocument(sourdough);
    const compiled = compile(graph, last.id);
    const sent = compiled.messages.map((message) => JSON.stringify(message.content)).join('\n');
    expect(sent).toContain('What temperature should my kitchen be');
    expect(sent).toContain('It is alive.');
    expect(sent).not.toContain('How warm is warm?');
    expect(sent).not.toContain('Not dead');
    // Every version was recorded against its upstream as built: nothing shows stale after an import.
    expect(computeStaleFull(graph).stale.size).toBe(0);
  });

  it('writes an import event at the end of a chain that verifies', async () => {
    await run(join(FIXTURES, 'chatgpt-conversations.json'));
    for (const document of await storedCanvases()) {
      expect(verifyChain(document.events)).toBeNull();
      const event = document.events.at(-1)!;
      expect(event.op).toBe('import');
      expect(event.meta).toMatchObject({ importId: 'import-1', source: 'chatgpt' });
    }
    const capital = (await storedCanvases()).find((document) => document.canvas.name === 'Capital of Australia')!;
    expect(capital.events.at(-1)!.meta).toMatchObject({
      conversationId: '6660b2c3-0000-8000-9abc-def012345679',
      questions: 1,
      versions: 1,
    });
  });

  it('refuses a malformed file with its line and column, storing nothing and leaving no staging behind', async () => {
    const error = await run(join(FIXTURES, 'chatgpt-malformed.json')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportError);
    // The missing comma after the title: the next key is where the parser stops.
    expect(error).toMatchObject({ code: 'import-malformed', position: { line: 265, column: 5 } });
    expect((error as Error).message).toContain('line 265, column 5');
    // The first conversation was complete and valid, yet nothing of the file is stored.
    expect((await store.list()).canvases).toEqual([]);
    expect(await readdir(join(home, 'imports'))).toEqual([]);
  });

  it('refuses a file that is not an array, or is cut off', async () => {
    const object = join(home, 'object.json');
    await writeFile(object, '\n  {"conversations": []}');
    await expect(run(object)).rejects.toMatchObject({ code: 'import-not-array', position: { line: 2, column: 3 } });
    const cut = join(home, 'cut.json');
    await writeFile(cut, '[{"title": "a", "mapping": {}},\n{"title": ');
    await expect(run(cut)).rejects.toMatchObject({ code: 'import-malformed', position: { line: 2 } });
    const empty = join(home, 'empty.json');
    await writeFile(empty, '  \n');
    await expect(run(empty)).rejects.toMatchObject({ code: 'import-empty' });
    expect((await store.list()).canvases).toEqual([]);
  });

  it('can be cancelled: what was read is dropped', async () => {
    const controller = new AbortController();
    const error = await run(join(FIXTURES, 'chatgpt-conversations.json'), {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'import-cancelled' });
    expect((await store.list()).canvases).toEqual([]);
  });

  it('rolls back records already stored when storing a later one fails', async () => {
    const controller = new AbortController();
    const error = await run(join(FIXTURES, 'chatgpt-conversations.json'), {
      signal: controller.signal,
      // Cancelled after the first record was stored: that record goes again.
      onProgress: (progress) => {
        if (progress.phase === 'storing') controller.abort();
      },
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'import-cancelled' });
    expect((await store.list()).canvases).toEqual([]);
  });
});

describe('Claude.ai conversations.json', () => {
  it('reads a linear conversation with its attachments', async () => {
    const result = await run(join(FIXTURES, 'claude-conversations.json'));
    expect(result).toMatchObject({ conversations: 2, sources: { claude: 2 } });
    const lease = (await storedCanvases()).find((document) => document.canvas.name === 'Reviewing a lease clause')!;
    const first = byQuestion(lease, 'Is clause 7');
    expect(first.question).toContain('[Attachment: lease-draft.txt (not in the export)]');
    expect(first.question).toContain('[Attachment: floor-plan.png (not in the export)]');
    // The thinking block is not the reply.
    expect(first.versions.map((version) => version.text)).toEqual([
      'Not quite: making the tenant pay for structural repairs is unusual in a residential lease.',
    ]);
    expect(first.versions[0]).toMatchObject({ model: 'claude.ai', createdAt: Date.parse('2025-03-04T09:15:21.512Z') });
    const second = byQuestion(lease, 'What should I ask');
    expect(parentsOf(lease, second.id)).toEqual([first.id]);
  });

  it('turns a retry into a version and an edited message into a branch (parent_message_uuid)', async () => {
    await run(join(FIXTURES, 'claude-conversations.json'));
    const cat = (await storedCanvases()).find((document) => document.canvas.name === 'Naming a cat')!;
    const first = byQuestion(cat, 'Suggest a name');
    expect(first.versions.map((version) => version.text)).toEqual(['Smoke.', 'Ash, Pebble or Earl Grey.']);
    expect(first.currentVersionId).toBe(first.versions[1]!.id);
    const why = byQuestion(cat, 'Why Earl Grey?');
    const shy = byQuestion(cat, 'Which of those suits');
    expect(parentsOf(cat, why.id)).toEqual([first.id]);
    expect(parentsOf(cat, shy.id)).toEqual([first.id]);
    expect(why.versions).toEqual([]);
    expect(shy.versions[0]!.text).toBe('Pebble: small, quiet and round.');
  });

  it('refuses a conversation of the wrong shape, naming it and where it starts', async () => {
    const error = await run(join(FIXTURES, 'claude-wrong-shape.json')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'import-malformed', position: { line: 11, column: 3 } });
    expect((error as Error).message).toContain('Conversation 2 is not a Claude.ai conversation: chat_messages');
    expect((await store.list()).canvases).toEqual([]);
  });
});
