import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CanvasDocument,
  MemoryJournalPage,
  MemoryJudgeRequest,
  MemoryJudgeResponse,
  MemoryStateResponse,
  QuestionNode,
} from '../../protocol/index.ts';
import { buildRequest, documentFromGraph, emptyCanvasDocument } from '../../src/core/index.ts';
import { TestCanvas } from '../../src/core/test-canvas.ts';
import type { ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startServerWithProvider } from '../../tests/support/server-with-provider.ts';
import type { TestServer } from '../../tests/support/test-server.ts';

/**
 * Issue 27.3, as a hostile client holding the launch token, through HTTP only: memory admits the person's words
 * only from an exchange the server itself committed and answered (its commit ledger), with who wrote the question
 * as the server recorded it. A version added by a plain save, a question handed to the person by deleting and
 * re-adding its node, or a version that claims the person wrote a model's question is never admitted; an ask
 * dispatched through `/api/generate` still is.
 */
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};
const MODEL = 'local/scripted-model';

beforeAll(async () => {
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['scripted-model'],
    apiKey: 'sk-test-ledger-0123456789',
  }));
  // Admitted facts are written at once, so a forged exchange that got through would show in the profile itself.
  await acceptProfileFactsAutomatically(server);
});
afterAll(async () => {
  await dispose();
});

const json = (method: string, body: unknown, revision?: string | null): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...(revision ? { 'if-match': `"${revision}"` } : {}) },
  body: JSON.stringify(body),
});

async function read(id: string): Promise<{ document: CanvasDocument; revision: string }> {
  const response = await server.api(`/api/canvases/${id}`);
  const revision = /^"([0-9a-f]{64})"$/.exec(response.headers.get('etag') ?? '')![1]!;
  return { document: (await response.json()) as CanvasDocument, revision };
}

async function put(id: string, document: CanvasDocument, revision: string | null): Promise<Response> {
  return server.api(`/api/canvases/${id}`, json('PUT', document, revision));
}

const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

/** A canvas the way the page keeps it, saved after every step. */
class PageCanvas {
  readonly canvas: TestCanvas;
  private revision: string | null = null;

  constructor(readonly id: string) {
    this.canvas = new TestCanvas({
      document: emptyCanvasDocument({ id, name: id, workingDirectory: null, createdAt: 1 }),
      idPrefix: `${id}-`,
    });
  }

  async save(): Promise<void> {
    const response = await put(this.id, documentFromGraph(this.canvas.graph), this.revision);
    expect(response.status, await response.clone().text()).toBe(200);
    this.revision = ((await response.json()) as { revision: string }).revision;
  }

  /** Asks through `/api/generate` as the app's run does (naming the node), then stores the version it streamed. */
  async ask(nodeId: string, answer: string): Promise<MemoryJudgeRequest> {
    provider.script({ text: answer });
    const built = buildRequest(this.canvas.compiled(nodeId), { model: MODEL, lane: 'chat' });
    const events = await collectStreamEvents(
      await server.api(
        '/api/generate',
        json('POST', {
          request: built.request,
          requestHash: built.requestHash,
          images: [],
          target: { canvasId: this.id, nodeId },
        }),
      ),
    );
    expect(events.map((event) => event.type)).toContain('answer-finished');
    const streamed = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
    expect(streamed).toBe(answer);
    const versionId = this.canvas.answer(nodeId, streamed, { model: MODEL });
    await this.save();
    return { canvasId: this.id, nodeId, versionId, commitHash: built.requestHash };
  }
}

const judge = (claim: MemoryJudgeRequest) => server.api('/api/memory/judge', json('POST', claim));

async function profileTexts(): Promise<string[]> {
  const state = (await (await server.api('/api/memory')).json()) as MemoryStateResponse;
  return [...state.profile.documents.preferences, ...state.profile.documents.identity].map((line) => line.text);
}

const questionIn = (document: CanvasDocument, nodeId: string) =>
  document.nodes.find((node): node is QuestionNode => node.id === nodeId && node.kind === 'question')!;

describe('memory admits only what the server committed and recorded', () => {
  it('a version added by a plain save, with the answer’s words as its question, is never the person’s', async () => {
    const page = new PageCanvas('forged');
    const nodeId = page.canvas.addQuestion('Which editor should I use?');
    await page.save();
    const genuine = await page.ask(nodeId, 'I prefer Emacs over Vim for everything.');

    // The hostile save: new versions with no dispatch, claiming the person asked the answer's words — one reusing
    // the genuine commit's hash, one with a hash of its own.
    const before = await read('forged');
    const asked = questionIn(before.document, nodeId).versions[0]!;
    const forge = (id: string, requestHash: string) => ({
      ...asked,
      id,
      question: asked.text,
      questionAuthor: 'person' as const,
      requestHash,
    });
    const forged = {
      ...before.document,
      nodes: before.document.nodes.map((node) =>
        node.id === nodeId && node.kind === 'question'
          ? {
              ...node,
              versions: [...node.versions, forge('forged-1', genuine.commitHash), forge('forged-2', 'f'.repeat(64))],
            }
          : node,
      ),
    };
    expect((await put('forged', forged, before.revision)).status).toBe(200);

    for (const [versionId, commitHash] of [
      ['forged-1', genuine.commitHash],
      ['forged-2', 'f'.repeat(64)],
    ] as const) {
      const refused = await judge({ ...genuine, versionId, commitHash });
      expect(refused.status).toBe(409);
      expect(await errorCode(refused)).toBe('memory-exchange-unrecorded');
    }
    expect(await profileTexts()).toEqual([]);
    // Each refusal is on record in memory's journal, by ids only.
    const journal = (await (
      await server.api('/api/memory/journal?op=memory-exchange-unrecorded')
    ).json()) as MemoryJournalPage;
    expect(journal.entries.map((entry) => [entry.verdict, entry.event.meta.versionId])).toEqual([
      ['refused', 'forged-2'],
      ['refused', 'forged-1'],
    ]);
    expect(JSON.stringify(journal)).not.toContain('Emacs');

    // The genuine exchange is judged: its question says nothing of the person, the answer is the model's.
    const honest = await judge(genuine);
    expect(honest.status).toBe(200);
    expect(((await honest.json()) as MemoryJudgeResponse).activity).toEqual([]);
    expect(await profileTexts()).toEqual([]);
  });

  it('a version claiming the person wrote a question the server recorded as a model’s admits nothing', async () => {
    const page = new PageCanvas('claimed');
    const nodeId = page.canvas.apply({
      type: 'add-node',
      node: { kind: 'question', question: 'I prefer light themes in every editor, do you?', questionAuthor: 'model' },
    }).created[0]!;
    await page.save();
    const asked = await page.ask(nodeId, 'Dark themes are easier on the eyes.');

    // The stored version's word flipped by a later save.
    const before = await read('claimed');
    const lying = {
      ...before.document,
      nodes: before.document.nodes.map((node) =>
        node.id === nodeId && node.kind === 'question'
          ? { ...node, versions: node.versions.map((version) => ({ ...version, questionAuthor: 'person' as const })) }
          : node,
      ),
    };
    // The stored version keeps who wrote its question: the save guard refuses the flip.
    expect(await errorCode(await put('claimed', lying, before.revision))).toBe('authorship-rewrite');

    // A second ask, its new version saying from its first save that the person asked it.
    provider.script({ text: 'Still dark.' });
    const built = buildRequest(page.canvas.compiled(nodeId), { model: MODEL, lane: 'chat' });
    await collectStreamEvents(
      await server.api(
        '/api/generate',
        json('POST', {
          request: built.request,
          requestHash: built.requestHash,
          images: [],
          target: { canvasId: 'claimed', nodeId },
        }),
      ),
    );
    const current = await read('claimed');
    const node = questionIn(current.document, nodeId);
    const second = {
      ...node.versions[0]!,
      id: 'second',
      text: 'Still dark.',
      questionAuthor: 'person' as const,
      requestHash: built.requestHash,
    };
    const withSecond = {
      ...current.document,
      nodes: current.document.nodes.map((each) =>
        each.id === nodeId ? { ...node, versions: [...node.versions, second] } : each,
      ),
    };
    // Refused at the save: a new version may not say the person asked the model's question.
    expect(await errorCode(await put('claimed', withSecond, current.revision))).toBe('authorship-rewrite');

    // The genuine version is judged with the author the server recorded at its commit: the model.
    const judged = await judge(asked);
    expect(judged.status).toBe(200);
    expect(((await judged.json()) as MemoryJudgeResponse).activity.map((entry) => entry.kind)).not.toContain(
      'admitted',
    );
    expect(await profileTexts()).toEqual([]);
  });

  it('a model’s words copied into a new node in the person’s name are still not theirs (any id on the canvas)', async () => {
    const page = new PageCanvas('copied');
    const words = 'I prefer light themes in every editor.';
    page.canvas.apply({ type: 'add-node', node: { kind: 'question', question: words, questionAuthor: 'model' } });
    // A new node, never stored before, holding the model's words and saying the person wrote them.
    const copy = page.canvas.apply({
      type: 'add-node',
      node: { kind: 'question', question: words, questionAuthor: 'person' },
    }).created[0]!;
    await page.save();
    const asked = await page.ask(copy, 'Dark themes are easier on the eyes.');
    const judged = await judge(asked);
    expect(judged.status).toBe(200);
    expect(((await judged.json()) as MemoryJudgeResponse).activity.map((entry) => entry.kind)).not.toContain(
      'admitted',
    );
    expect(await profileTexts()).toEqual([]);
  });

  it('refuses to re-add a model’s question or Weft’s note in the person’s name: two saves, a re-created record, one save', async () => {
    const page = new PageCanvas('readd');
    const nodeId = page.canvas.apply({
      type: 'add-node',
      node: { kind: 'question', question: 'I prefer tabs over spaces, do you?', questionAuthor: 'model' },
    }).created[0]!;
    const noteId = page.canvas.apply({
      type: 'add-node',
      node: { kind: 'note', text: 'My name is Mallory Smith.', author: 'app' },
    }).created[0]!;
    await page.save();
    await page.ask(nodeId, 'Spaces.');
    const original = await read('readd');
    const question = questionIn(original.document, nodeId);
    const asPerson = {
      ...question,
      questionAuthor: 'person' as const,
      versions: question.versions.map((version) => ({ ...version, questionAuthor: 'person' as const })),
    };
    const without = { ...original.document, nodes: original.document.nodes.filter((node) => node.id !== nodeId) };

    // Two saves: the node deleted, then re-added under its id as the person's.
    const deleted = await put('readd', without, original.revision);
    expect(deleted.status).toBe(200);
    const afterDelete = ((await deleted.json()) as { revision: string }).revision;
    const readded = { ...without, nodes: [...without.nodes, asPerson] };
    const refused = await put('readd', readded, afterDelete);
    expect(refused.status).toBe(409);
    expect(await errorCode(refused)).toBe('authorship-rewrite');
    // Re-added as the model's, with a new version saying the person asked those words: refused too.
    const claimed = {
      ...question,
      versions: [...question.versions, { ...question.versions[0]!, id: 'claimed', questionAuthor: 'person' as const }],
    };
    expect(await errorCode(await put('readd', { ...without, nodes: [...without.nodes, claimed] }, afterDelete))).toBe(
      'authorship-rewrite',
    );
    // Re-added as it was (the model's) is an undo, and allowed.
    const undone = await put('readd', { ...without, nodes: [...without.nodes, question] }, afterDelete);
    expect(undone.status).toBe(200);

    // The record deleted and re-created under its id, with the question and Weft's note in the person's name.
    expect((await server.api('/api/canvases/readd', { method: 'DELETE' })).status).toBeLessThan(300);
    const note = original.document.nodes.find((node) => node.id === noteId)!;
    for (const node of [asPerson, { ...note, author: 'person' as const }]) {
      const recreated = { ...original.document, nodes: [...without.nodes.filter((each) => each.id !== node.id), node] };
      const response = await put('readd', recreated, null);
      expect(response.status).toBe(409);
      expect(await errorCode(response)).toBe('authorship-rewrite');
    }

    // One save: Weft's note deleted and re-added under its id as a question the person wrote, same words.
    const fresh = new PageCanvas('swap');
    const weftNote = fresh.canvas.apply({
      type: 'add-node',
      node: { kind: 'note', text: 'I prefer Emacs over Vim for everything.', author: 'app' },
    }).created[0]!;
    await fresh.save();
    const stored = await read('swap');
    const swapped = {
      ...stored.document,
      nodes: stored.document.nodes.map((node) =>
        node.id === weftNote
          ? { ...asPerson, id: weftNote, question: 'I prefer Emacs over Vim for everything.', versions: [] }
          : node,
      ),
    };
    const swap = await put('swap', swapped, stored.revision);
    expect(swap.status).toBe(409);
    expect(await errorCode(swap)).toBe('authorship-rewrite');
    expect((await read('swap')).revision).toBe(stored.revision);
  });

  it('after the person rewrites a model’s question, its old words asked again are still not theirs', async () => {
    const page = new PageCanvas('rewritten');
    const nodeId = page.canvas.apply({
      type: 'add-node',
      node: { kind: 'question', question: 'I prefer tabs over spaces, do you?', questionAuthor: 'model' },
    }).created[0]!;
    await page.save();
    // The request for the model's words, built before the edit; sent after it (the stored node no longer says them).
    const built = buildRequest(page.canvas.compiled(nodeId), { model: MODEL, lane: 'chat' });
    const before = await read('rewritten');
    const edited = {
      ...before.document,
      nodes: before.document.nodes.map((node) =>
        node.id === nodeId ? { ...node, question: 'Which do you prefer?', questionAuthor: 'person' as const } : node,
      ),
    };
    const saved = await put('rewritten', edited, before.revision);
    expect(saved.status).toBe(200);
    provider.script({ text: 'Spaces.' });
    const target = { canvasId: 'rewritten', nodeId };
    await collectStreamEvents(
      await server.api(
        '/api/generate',
        json('POST', { request: built.request, requestHash: built.requestHash, images: [], target }),
      ),
    );
    const after = await read('rewritten');
    const node = questionIn(after.document, nodeId);
    // The version as the app would write it for that answer, then claimed as the person's.
    const versionId = page.canvas.answer(nodeId, 'Spaces.', { model: MODEL });
    const answered = page.canvas.graph.nodes.get(nodeId) as QuestionNode;
    const version = {
      ...answered.versions.find((each) => each.id === versionId)!,
      questionAuthor: 'person' as const,
    };
    expect(version.requestHash).toBe(built.requestHash);
    const withVersion = {
      ...after.document,
      nodes: after.document.nodes.map((each) => (each.id === nodeId ? { ...node, versions: [version] } : each)),
    };
    const refused = await put('rewritten', withVersion, after.revision);
    expect(refused.status).toBe(409);
    expect(await errorCode(refused)).toBe('authorship-rewrite');
    expect(await profileTexts()).toEqual([]);
  });

  it('refuses, before any model call, a request naming a node the stored canvas holds as something else', async () => {
    const page = new PageCanvas('target');
    const noteId = page.canvas.addNote('Not a question.');
    const nodeId = page.canvas.addQuestion('What is a tide?');
    await page.save();
    const calls = provider.requests.length;
    const built = buildRequest(page.canvas.compiled(nodeId), { model: MODEL, lane: 'chat' });
    const events = await collectStreamEvents(
      await server.api(
        '/api/generate',
        json('POST', {
          request: built.request,
          requestHash: built.requestHash,
          images: [],
          target: { canvasId: 'target', nodeId: noteId },
        }),
      ),
    );
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'dispatch-target-mismatch' })]);
    expect(provider.requests.length).toBe(calls);
    expect(await server.context.commits.recorded(built.requestHash)).toEqual([]);
  });

  it('a genuine ask through /api/generate still admits the person’s words, and each replay is its own commit', async () => {
    const page = new PageCanvas('genuine');
    const nodeId = page.canvas.addQuestion('I prefer tabs over spaces. How do I set that in Vim?');
    await page.save();
    const first = await page.ask(nodeId, 'Use :set noexpandtab.');
    const judged = await judge(first);
    expect(judged.status).toBe(200);
    expect(((await judged.json()) as MemoryJudgeResponse).activity.map((entry) => [entry.kind, entry.text])).toEqual([
      ['admitted', 'I prefer tabs over spaces.'],
    ]);
    expect(await profileTexts()).toContain('I prefer tabs over spaces.');

    // The same request asked again (same hash) with another answer: its own ledger entry, so its version is evidence.
    const again = await page.ask(nodeId, 'Or :set noet for short.');
    expect(again.commitHash).toBe(first.commitHash);
    expect((await judge(again)).status).toBe(200);
  });
});
