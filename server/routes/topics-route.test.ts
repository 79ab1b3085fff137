import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DossierView, LabelJob, LabelPlan, TopicLabels, TopicsState } from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { closeAtlasService } from '../atlas/atlas-registry.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';

const savedRoots = process.env.WEFT_SESSION_ROOTS;
afterAll(() => {
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});

function call(server: TestServer, path: string, method = 'GET', etag: string | null = null, body?: unknown) {
  return server.api(path, {
    method,
    headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function state(server: TestServer): Promise<{ body: TopicsState; etag: string }> {
  const response = await call(server, '/api/topics');
  expect(response.status).toBe(200);
  return { body: (await response.json()) as TopicsState, etag: response.headers.get('etag')! };
}

async function create(server: TestServer, name: string): Promise<TopicsState> {
  const response = await call(server, '/api/topics', 'POST', (await state(server)).etag, { name });
  expect(response.status).toBe(200);
  return (await response.json()) as TopicsState;
}

async function plan(server: TestServer): Promise<LabelPlan> {
  return (await (await call(server, '/api/topics/label/plan')).json()) as LabelPlan;
}

/** Starts a run as the app does: naming the plan it showed. */
async function start(server: TestServer): Promise<Response> {
  const shown = await plan(server);
  return call(server, '/api/topics/label', 'POST', null, {
    judgeModelId: shown.judgeModelId,
    toLabel: shown.toLabel,
    requests: shown.requests,
  });
}

async function label(server: TestServer): Promise<LabelJob> {
  const started = await start(server);
  expect(started.status).toBe(202);
  return finished(server);
}

async function finished(server: TestServer): Promise<LabelJob> {
  for (;;) {
    const job = (await (await call(server, '/api/topics/label')).json()) as LabelJob;
    if (job.state !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('topics over HTTP, no judge (names match in code)', () => {
  const atlas = withAtlasServer();
  let exchanges: StoredExchanges;
  beforeAll(() => {
    exchanges = new StoredExchanges(atlas.server);
  });

  it('creates, renames, merges and deletes topics by id under If-Match, each an event, stored 0600', async () => {
    const refused = await call(atlas.server, '/api/topics', 'POST', null, { name: 'Dexie' });
    expect(refused.status).toBe(428);
    const first = await create(atlas.server, 'Dexie');
    const dexie = first.record.topics[0]!;
    const duplicate = await call(atlas.server, '/api/topics', 'POST', (await state(atlas.server)).etag, {
      name: 'dexie',
    });
    expect(duplicate.status).toBe(400);
    expect(((await duplicate.json()) as { error: { code: string } }).error.code).toBe('topic-duplicate-name');
    const stale = await call(atlas.server, '/api/topics', 'POST', `"${'0'.repeat(64)}"`, { name: 'Other' });
    expect(stale.status).toBe(409);

    const storage = (await create(atlas.server, 'Storage')).record.topics[1]!;
    const renamed = await call(atlas.server, `/api/topics/${storage.id}`, 'PATCH', (await state(atlas.server)).etag, {
      name: 'IndexedDB',
    });
    expect(((await renamed.json()) as TopicsState).record.topics[1]).toEqual({ ...storage, name: 'IndexedDB' });
    const merged = await call(
      atlas.server,
      `/api/topics/${storage.id}/merge`,
      'POST',
      (await state(atlas.server)).etag,
      {
        into: dexie.id,
      },
    );
    expect(((await merged.json()) as TopicsState).record.topics).toEqual([dexie]);
    const scratch = (await create(atlas.server, 'Scratch')).record.topics[1]!;
    const deleted = await call(atlas.server, `/api/topics/${scratch.id}`, 'DELETE', (await state(atlas.server)).etag);
    expect(((await deleted.json()) as TopicsState).record.topics.map((topic) => topic.id)).toEqual([dexie.id]);
    expect((await call(atlas.server, `/api/topics/nope`, 'DELETE', (await state(atlas.server)).etag)).status).toBe(404);

    const journal = JSON.parse(await readFile(join(atlas.server.home, 'memory', 'topics-journal.json'), 'utf8')) as {
      events: { op: string; objectId: string }[];
    };
    expect(journal.events.map((event) => event.op)).toEqual([
      'topic-created',
      'topic-created',
      'topic-renamed',
      'topic-merged',
      'topic-created',
      'topic-deleted',
    ]);
    expect(statSync(join(atlas.server.home, 'memory', 'topics.json')).mode & 0o777).toBe(0o600);
  });

  it('plans, labels by name, reuses unchanged turns, and keeps keys when another node is archived', async () => {
    const asked = await exchanges.store('canvas-a', {
      question: 'Why does the Dexie schema break?',
      answer: 'A version.',
    });
    const other = await exchanges.store('canvas-a', { question: 'What about layout?', answer: 'Use flex.' });
    const before = await plan(atlas.server);
    const sessionTurns = before.turns - 2;
    expect(sessionTurns).toBeGreaterThan(0);
    expect(before).toMatchObject({ reused: 0, toLabel: before.turns, requests: 0, price: null, outgoing: [] });

    const job = await label(atlas.server);
    expect(job).toMatchObject({ state: 'done', total: before.turns, done: before.turns, byJudge: 0 });
    const { record } = (await state(atlas.server)).body;
    const dexieId = record.topics[0]!.id;
    const canvasKey = `canvas:canvas-a#${asked.nodeId}@${asked.versionId}`;
    expect(record.labels.find((entry) => entry.turnKey === canvasKey)).toMatchObject({
      topicIds: [dexieId],
      by: 'name',
    });
    expect(record.labels.some((entry) => entry.turnKey.startsWith('canvas:'))).toBe(true);
    expect(record.labels.filter((entry) => !entry.turnKey.startsWith('canvas:'))).toHaveLength(sessionTurns);

    expect(await plan(atlas.server)).toMatchObject({ reused: before.turns, toLabel: 0 });
    await exchanges.update('canvas-a', (canvas) => canvas.archive(other.nodeId));
    expect(await plan(atlas.server)).toMatchObject({ turns: before.turns - 1, reused: before.turns - 1, toLabel: 0 });
    // Asking again is a new version: that turn, and only it, is labelled again.
    await exchanges.ask('canvas-a', asked.nodeId);
    expect(await plan(atlas.server)).toMatchObject({ toLabel: 1 });
  });

  it('lists a topic’s labelled turns and removes one for good: stored, an event, unread by the dossier, not re-added', async () => {
    // "the" names nearly every session turn, so the list shows session turns too.
    const common = (await create(atlas.server, 'the')).record.topics[1]!;
    await label(atlas.server);
    const dexie = (await state(atlas.server)).body.record.topics[0]!;
    const sessions = (await (await call(atlas.server, `/api/topics/${common.id}/labels`)).json()) as TopicLabels;
    const sessionTurn = sessions.turns.find((turn) => turn.source === 'session')!;
    expect(sessionTurn).toMatchObject({ found: true, by: 'name' });
    expect(['claude-code', 'codex', 'pi']).toContain(sessionTurn.runner);
    expect(sessionTurn.title).toEqual(expect.any(String));
    expect(sessionTurn.opening.length).toBeGreaterThan(0);
    expect(sessionTurn.at).toBeGreaterThan(0);
    const listed = (await (await call(atlas.server, `/api/topics/${dexie.id}/labels`)).json()) as TopicLabels;
    const canvasTurn = listed.turns.find((turn) => turn.source === 'canvas' && turn.found)!;
    expect(canvasTurn).toMatchObject({
      runner: 'canvas',
      title: 'canvas-a',
      opening: 'Why does the Dexie schema break?',
      by: 'name',
    });
    expect(canvasTurn.at).toBeGreaterThan(0);
    const unreadBefore = ((await (await call(atlas.server, `/api/dossiers/${dexie.id}`)).json()) as DossierView)
      .unreadTurns;

    const path = `/api/topics/${dexie.id}/labels/${encodeURIComponent(canvasTurn.turnKey)}`;
    expect((await call(atlas.server, path, 'DELETE')).status).toBe(428);
    const removed = await call(atlas.server, path, 'DELETE', (await state(atlas.server)).etag);
    expect(removed.status).toBe(200);
    const after = (await (await call(atlas.server, `/api/topics/${dexie.id}/labels`)).json()) as TopicLabels;
    expect(after.turns.map((turn) => turn.turnKey)).not.toContain(canvasTurn.turnKey);
    expect((await call(atlas.server, path, 'DELETE', (await state(atlas.server)).etag)).status).toBe(404);
    const journal = JSON.parse(await readFile(join(atlas.server.home, 'memory', 'topics-journal.json'), 'utf8')) as {
      events: { op: string; objectId: string; meta: Record<string, unknown> }[];
    };
    expect(journal.events.at(-1)).toMatchObject({
      op: 'topic-label-removed',
      objectId: dexie.id,
      meta: { turnKey: canvasTurn.turnKey },
    });
    const unreadAfter = ((await (await call(atlas.server, `/api/dossiers/${dexie.id}`)).json()) as DossierView)
      .unreadTurns;
    expect(unreadAfter).toBe(unreadBefore - 1);

    // A new topic makes the next run label every turn again; the person's removal still holds.
    await create(atlas.server, 'Layout');
    expect(await plan(atlas.server)).toMatchObject({ reused: 0 });
    await label(atlas.server);
    const relabelled = (await state(atlas.server)).body.record.labels.find(
      (entry) => entry.turnKey === canvasTurn.turnKey,
    );
    expect(relabelled?.topicIds).not.toContain(dexie.id);
  });
});

describe('topics over HTTP with a decision model', () => {
  let provider: ScriptedProvider;
  let server: TestServer;
  let exchanges: StoredExchanges;
  let emptyRoots: string;
  beforeAll(async () => {
    emptyRoots = mkdtempSync(join(tmpdir(), 'weft-no-sessions-'));
    process.env.WEFT_SESSION_ROOTS = emptyRoots;
    provider = await startScriptedProvider();
    server = await startTestServer({ judgeTimeoutMs: 2000 });
    exchanges = new StoredExchanges(server);
    await call(server, '/api/settings', 'PUT', null, {
      providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['small'] }],
      judgeModelId: 'judge/small',
    });
  });
  afterAll(async () => {
    await closeAtlasService(server.context);
    await server.dispose();
    await provider.close();
    rmSync(emptyRoots, { recursive: true, force: true });
  });

  it('shows what leaves before the run, sends only each opening, and labels by the judge', async () => {
    const long = `${'Storage engines compared. '.repeat(30)}SECRET-TAIL-BEYOND-THE-OPENING`;
    await exchanges.store('canvas-j', { question: 'Which database should I use?', answer: long });
    await exchanges.store('canvas-j', { question: 'How do I centre a div?', answer: 'Flexbox.' });
    const storage = (await create(server, 'Storage')).record.topics[0]!;
    await create(server, 'Layout');

    const planned = await plan(server);
    expect(planned).toMatchObject({ turns: 2, toLabel: 2, requests: 2, judgeModelId: 'judge/small' });
    expect(planned.inputTokens).toBeGreaterThan(0);
    expect(planned.outgoing.map((item) => item.opening.length)).toEqual([
      400,
      'How do I centre a div?\n\nFlexbox.'.length,
    ]);
    expect(planned.outgoing[0]!.opening).not.toContain('SECRET-TAIL');
    // A start naming a plan other than this one (say, shown before the judge was set) sends nothing.
    const before0 = provider.requests.length;
    const stale = await call(server, '/api/topics/label', 'POST', null, {
      judgeModelId: null,
      toLabel: 2,
      requests: 0,
    });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('label-plan-changed');
    const bare = await call(server, '/api/topics/label', 'POST', null, {});
    expect(bare.status).toBe(400);
    expect(provider.requests.length).toBe(before0);

    provider.replyFor = (body) => {
      const text = JSON.stringify(body);
      return { text: text.includes('database') ? `{"${storage.id}": 0.9, "none": 0.1}` : '{"none": 1}' };
    };
    const before = provider.requests.length;
    const job = await label(server);
    expect(job).toMatchObject({ state: 'done', done: 2, byJudge: 2, byName: 0 });
    const sent = provider.requests.slice(before).map((request) => JSON.stringify(request.body));
    expect(sent).toHaveLength(2);
    for (const [index, item] of planned.outgoing.entries())
      expect(sent[index]).toContain(JSON.stringify(item.opening).slice(1, -1));
    expect(sent.join('')).not.toContain('SECRET-TAIL');
    const labels = (await state(server)).body.record.labels;
    expect(labels.map((entry) => [entry.topicIds, entry.by])).toEqual([
      [[storage.id], 'judge'],
      [[], 'judge'],
    ]);
    // Nothing changed: nothing is asked again.
    expect(await plan(server)).toMatchObject({ reused: 2, toLabel: 0, requests: 0, outgoing: [] });
  });

  it('stops between turns when the person stops it, keeping the labels found so far', async () => {
    for (let index = 0; index < 6; index += 1)
      await exchanges.store('canvas-s', { question: `Question number ${index}?`, answer: 'An answer.' });
    provider.replyFor = () => ({ text: '{"none": 1}', firstDelayMs: 150 });
    const started = await start(server);
    expect(started.status).toBe(202);
    const again = await start(server);
    expect(again.status).toBe(409);
    await provider.waitForRequests(provider.requests.length + 1);
    const stop = await call(server, '/api/topics/label/stop', 'POST', null, {});
    expect(((await stop.json()) as { stopped: boolean }).stopped).toBe(true);
    const job = await finished(server);
    expect(job.state).toBe('stopped');
    expect(job.done).toBeLessThan(job.total);
    expect(job.done).toBeGreaterThan(0);
    const labelled = (await state(server)).body.record.labels.filter((entry) =>
      entry.turnKey.startsWith('canvas:canvas-s'),
    );
    expect(labelled).toHaveLength(job.done);
  });
});
