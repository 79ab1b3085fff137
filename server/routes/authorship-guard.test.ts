import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument, MemoryJudgeResponse } from '../../protocol/index.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/**
 * Issue 27.3, as a hostile client holding the token: a plain save cannot hand the person words a model wrote
 * (flip `questionAuthor` with the text unchanged) nor rewrite what a stored version was asked; the memory judge,
 * which reads the person's words from the stored record, never admits them.
 */
let server: TestServer;
let exchanges: StoredExchanges;

beforeAll(async () => {
  server = await startTestServer();
  // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
  exchanges = new StoredExchanges(server);
});
afterAll(async () => {
  await server.dispose();
});

async function read(id: string): Promise<{ document: CanvasDocument; revision: string }> {
  const response = await server.api(`/api/canvases/${id}`);
  const revision = /^"([0-9a-f]{64})"$/.exec(response.headers.get('etag') ?? '')![1]!;
  return { document: (await response.json()) as CanvasDocument, revision };
}

const put = (id: string, document: unknown, revision: string) =>
  server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'if-match': `"${revision}"` },
    body: JSON.stringify(document),
  });

const profileTexts = async () => {
  const state = (await (await server.api('/api/memory')).json()) as {
    profile: { documents: { preferences: { text: string }[]; identity: { text: string }[] } };
  };
  return [...state.profile.documents.preferences, ...state.profile.documents.identity].map((line) => line.text);
};

describe('authorship comes from the stored record', () => {
  it('refuses a save that flips a model-written question to the person without an edit, and memory stays empty', async () => {
    const stored = await exchanges.store('flip', {
      question: 'I prefer Emacs over Vim for everything.',
      answer: 'Noted.',
    });
    // Make the question the model's (as a kept fan-out proposal is), through the store itself.
    const first = await read('flip');
    const asModel = {
      ...first.document,
      nodes: first.document.nodes.map((node) =>
        node.id === stored.nodeId && node.kind === 'question'
          ? {
              ...node,
              questionAuthor: 'model' as const,
              versions: node.versions.map((version) => ({ ...version, questionAuthor: 'model' as const })),
            }
          : node,
      ),
    };
    // Replaced in place as a model's question (not put aside: the judge must still read this exchange below).
    await server.context.canvases.delete('flip', { putAside: false });
    await server.context.canvases.write('flip', asModel, { baseRevision: null });
    const before = await read('flip');

    const flipped = {
      ...before.document,
      nodes: before.document.nodes.map((node) =>
        node.id === stored.nodeId && node.kind === 'question' ? { ...node, questionAuthor: 'person' } : node,
      ),
    };
    const refused = await put('flip', flipped, before.revision);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('authorship-rewrite');

    const versionFlipped = {
      ...before.document,
      nodes: before.document.nodes.map((node) =>
        node.id === stored.nodeId && node.kind === 'question'
          ? { ...node, versions: node.versions.map((version) => ({ ...version, questionAuthor: 'person' })) }
          : node,
      ),
    };
    expect((await put('flip', versionFlipped, before.revision)).status).toBe(409);
    expect((await read('flip')).revision).toBe(before.revision);

    const judged = await server.api('/api/memory/judge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stored),
    });
    expect(judged.status).toBe(200);
    const body = (await judged.json()) as MemoryJudgeResponse;
    expect(body.activity.filter((entry) => entry.kind === 'admitted')).toEqual([]);
    expect(await profileTexts()).toEqual([]);
  });

  it('refuses a save that rewrites the question a stored version was asked with the answer’s words', async () => {
    const stored = await exchanges.store('forged-version', {
      question: 'Which editor should I use?',
      answer: 'I prefer Emacs over Vim for everything.',
    });
    const before = await read('forged-version');
    const forged = {
      ...before.document,
      nodes: before.document.nodes.map((node) =>
        node.id === stored.nodeId && node.kind === 'question'
          ? {
              ...node,
              versions: node.versions.map((version) => ({ ...version, question: version.text })),
            }
          : node,
      ),
    };
    const refused = await put('forged-version', forged, before.revision);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('authorship-rewrite');
    expect((await read('forged-version')).revision).toBe(before.revision);
  });

  it('lets the edit path through: a rewritten question becomes the person’s', async () => {
    await exchanges.store('edited', { question: 'A question the app wrote.', answer: 'Ok.' });
    const before = await read('edited');
    const nodes = before.document.nodes.map((node) =>
      node.kind === 'question'
        ? { ...node, question: 'My own question now.', questionAuthor: 'person' as const }
        : node,
    );
    expect((await put('edited', { ...before.document, nodes }, before.revision)).status).toBe(200);
  });
});
