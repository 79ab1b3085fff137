import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DossierSentenceInbox, TopicsState } from '../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { dossierStoreFor } from './dossier-services.ts';

// Issue 29.1/29 in the Inbox: the dossier sentences waiting for review come a page at a time, newest first, by the
// last id shown (never a position), each page naming its sentences' topics — over the real server and SQLite store.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

async function json<T>(path: string, method = 'GET', body?: unknown, etag?: string): Promise<T> {
  const response = await server.api(path, {
    method,
    headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function createTopic(name: string): Promise<string> {
  const etag = (await server.api('/api/topics')).headers.get('etag')!;
  const state = await json<TopicsState>('/api/topics', 'POST', { name }, etag);
  return state.record.topics.find((topic) => topic.name === name)!.id;
}

describe('the Inbox’s dossier sentences over HTTP', () => {
  it('pages newest first by the last id shown, names each page’s topics, and a decision shifts nothing', async () => {
    const lifts = await createTopic('Lifts');
    const stairs = await createTopic('Stairs');
    const proposals = dossierStoreFor(server.context).sentenceProposals();
    const cite = ['canvas:c#n@v'];
    for (let index = 1; index <= 5; index += 1)
      proposals.propose(index % 2 === 0 ? stairs : lifts, [
        { section: 'what', text: `Sentence number ${index}.`, citations: cite },
      ]);
    const page = (cursor: string | null) =>
      json<DossierSentenceInbox>(`/api/dossier-sentences?limit=2${cursor ? `&cursor=${cursor}` : ''}`);

    const first = await page(null);
    expect(first.total).toBe(5);
    expect(first.proposals.map((each) => each.text)).toEqual(['Sentence number 5.', 'Sentence number 4.']);
    expect(first.topicNames).toEqual({ [lifts]: 'Lifts', [stairs]: 'Stairs' });
    expect(first.nextCursor).toBe(first.proposals[1]!.id);

    // A decision on a row already shown does not move the next page (it is read after the cursor's row).
    await json(`/api/dossier-sentences/${first.proposals[0]!.id}/reject`, 'POST');
    const second = await page(first.nextCursor);
    expect(second.proposals.map((each) => each.text)).toEqual(['Sentence number 3.', 'Sentence number 2.']);
    expect(second.total).toBe(4);
    const last = await page(second.nextCursor);
    expect(last.proposals.map((each) => each.text)).toEqual(['Sentence number 1.']);
    expect(last.topicNames).toEqual({ [lifts]: 'Lifts' });
    expect(last.nextCursor).toBeNull();
  });
});
