import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RECALL_SETTING,
  type DossierPlan,
  type DossierSentenceInbox,
  type DossierView,
  type MemoryJournalPage,
  type PutAsideListResponse,
  type RecallPlanResponse,
  type TopicRecord,
} from '../protocol/index.ts';
import { emptyCanvasDocument, TestCanvas } from '../src/core/index.ts';
import { runWeftInProcess } from '../cli/run-weft.ts';
import { dossierStoreFor } from '../server/routes/dossier-services.ts';
import { withAtlasServer } from './support/atlas-server.ts';
import { startScriptedProvider, type ScriptedProvider } from './support/scripted-provider.ts';

/**
 * Golden set of issue 29.2 for a struck dossier sentence, on the real server over the real session fixtures with a
 * scripted chat model on 127.0.0.1: the person strikes a sentence, a later update writes the same words again (in
 * other spacing and case, under a new id), and they are not back — not in the stored version, the dossier view,
 * `weft dossier`, recall's plan or the request `weft compile` builds. Restoring is journaled and lets them back.
 */
const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';
const STRUCK = 'greet lives in hello.ts and returns a template string.';
const KEPT = 'greet takes one name and says hello to it.';
const atlas = withAtlasServer({ prefix: 'weft-struck-sentence-' });
let provider: ScriptedProvider;

beforeAll(async () => {
  provider = await startScriptedProvider();
  const response = await api('/api/settings', 'PUT', {
    providers: [{ id: 'scripted', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['writer'] }],
    defaultModelId: 'scripted/writer',
  });
  expect(response.status).toBe(200);
});
afterAll(async () => {
  await provider.close();
});

function api(path: string, method = 'GET', body?: unknown, etag?: string): Promise<Response> {
  return atlas.server.api(path, {
    method,
    headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
async function json<T>(path: string, method = 'GET', body?: unknown, etag?: string): Promise<T> {
  const response = await api(path, method, body, etag);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

const texts = (view: DossierView) =>
  view.dossier ? Object.values(view.dossier.sections).flatMap((section) => section.map((each) => each.text)) : [];

/** The question recall is asked for, on a canvas of the fixtures' project, with recall on: the topic is in it. */
async function recallFile(
  question = 'Where does greet live, and what does greet return?',
  canvasId = 'canvas-ask',
): Promise<{ file: string; target: string; plan: () => Promise<RecallPlanResponse> }> {
  const canvas = new TestCanvas({
    idPrefix: `${canvasId}-n`,
    document: emptyCanvasDocument({ id: canvasId, name: 'Ask', workingDirectory: CLAUDE_REPO, createdAt: 1 }),
  });
  const target = canvas.addQuestion(question);
  const setting = { ...DEFAULT_RECALL_SETTING, enabled: true };
  // A dossier is a model's summary (#29: inferred): the node lets inferred items in, as a person reading dossiers does.
  const memoryReading = { includeInferred: true, asOf: null };
  canvas.edit(target, { recall: setting, memoryReading });
  const document = canvas.document();
  await atlas.server.context.canvases.write(canvasId, document, { baseRevision: null });
  const file = join(atlas.fixtures.weftHome, `${canvasId}.weft.json`);
  await writeFile(file, JSON.stringify(document));
  const plan = () =>
    json<RecallPlanResponse>('/api/recall/plan', 'POST', {
      question,
      canvasId,
      nodeId: target,
      workingDirectory: CLAUDE_REPO,
      setting,
      memoryReading,
      contextWindow: 200_000,
    });
  return { file, target, plan };
}

async function weft(argv: string[]) {
  return runWeftInProcess(argv, {
    cwd: atlas.fixtures.weftHome,
    env: { WEFT_HOME: atlas.fixtures.weftHome, WEFT_SESSION_ROOTS: atlas.fixtures.rootsVariable },
  });
}

describe('a struck dossier sentence stays struck', () => {
  it('strike → the same words written again by an update → not back in the dossier, recall or the compiled request', async () => {
    // A cited canvas turn in the project, a topic, and a dossier of two sentences citing it.
    const source = new TestCanvas({
      idPrefix: 'src-n',
      document: emptyCanvasDocument({ id: 'canvas-src', name: 'Src', workingDirectory: CLAUDE_REPO, createdAt: 1 }),
    });
    const node = source.addQuestion('Where does greet live?');
    source.answer(node, 'In hello.ts.');
    await atlas.server.context.canvases.write('canvas-src', source.document(), { baseRevision: null });
    const answered = source.document().nodes.find((each) => each.id === node);
    const cited = `canvas:canvas-src#${node}@${answered?.kind === 'question' ? answered.versions[0]!.id : ''}`;
    const etag = (await api('/api/topics')).headers.get('etag')!;
    const topicId = (await json<{ record: TopicRecord }>('/api/topics', 'POST', { name: 'greet' }, etag)).record
      .topics[0]!.id;
    const store = dossierStoreFor(atlas.server.context);
    store.writeVersion({
      topicId,
      mode: 'rebuild',
      modelId: 'scripted/writer',
      baseVersion: 0,
      dropped: [],
      turnsRead: [cited],
      factsRead: [],
      dossier: {
        format: 'weft.dossier',
        topicId,
        version: 1,
        writtenAt: 5,
        sections: {
          what: [
            { id: 's1', text: STRUCK, citations: [cited] },
            { id: 's2', text: KEPT, citations: [cited] },
          ],
          decisions: [],
          status: [],
          open: [],
        },
      },
    });
    const ask = await recallFile();
    expect((await ask.plan()).block).toContain('template string');

    // The person strikes s1: out of the view (counted), out of recall; a tombstone listed and journaled.
    const struck = await json<DossierView>(`/api/dossiers/${topicId}/sentences/s1/strike`, 'POST');
    expect(texts(struck)).toEqual([KEPT]);
    expect(struck.struck).toBe(1);
    expect((await api(`/api/dossiers/${topicId}/sentences/no-such-sentence/strike`, 'POST')).status).toBe(404);
    const listed = await json<PutAsideListResponse>('/api/memory/put-asides');
    const tombstone = listed.items.find((item) => item.kind === 'dossier-sentence')!;
    expect(tombstone).toMatchObject({ reason: 'struck', origin: { topicId, sentenceId: 's1' }, excerpt: STRUCK });
    const journal = await json<MemoryJournalPage>('/api/memory/journal?op=memory-put-aside');
    expect(journal.entries[0]!.event.meta).toMatchObject({ kind: 'dossier-sentence', reason: 'struck', topicId });
    expect(JSON.stringify(journal)).not.toContain('template string');
    const recalled = await ask.plan();
    expect(recalled.block).toContain('says hello');
    expect(recalled.block).not.toContain('template string');

    // Restored: back in the view and recall, and the restore is journaled.
    await json(`/api/memory/put-asides/${tombstone.id}/restore`, 'POST');
    expect(texts(await json<DossierView>(`/api/dossiers/${topicId}`))).toEqual([STRUCK, KEPT]);
    expect((await ask.plan()).block).toContain('template string');
    const restored = await json<MemoryJournalPage>('/api/memory/journal?op=memory-restored');
    expect(restored.entries[0]!.event.meta).toMatchObject({ kind: 'dossier-sentence', reason: 'restored' });
    expect((await api(`/api/memory/put-asides/${tombstone.id}/restore`, 'POST')).status).toBe(404);

    // Struck again, then an update whose model writes the same words again (other case and spacing, a new id).
    await json<DossierView>(`/api/dossiers/${topicId}/sentences/s1/strike`, 'POST');
    store.fileFact({ text: 'greet is exported.', turnKey: cited, topicIds: [topicId] });
    const plan = await json<DossierPlan>(`/api/dossiers/${topicId}/plan?mode=update`);
    expect(plan.outgoing.prompt).not.toContain('template string');
    provider.script({
      text: JSON.stringify({
        what: [
          { text: '  Greet lives in hello.ts   and RETURNS a template string. ', citations: [cited] },
          { id: 's2', text: KEPT, citations: [cited] },
        ],
        decisions: [{ text: 'greet is exported.', citations: [cited] }],
        status: [],
        open: [],
      }),
    });
    const updated = await json<DossierView>(`/api/dossiers/${topicId}/build`, 'POST', {
      mode: 'update',
      turnKeys: plan.turns.map((turn) => turn.turnKey),
      factIds: plan.facts.map((fact) => fact.id),
    });
    expect(updated.dossier?.version).toBe(2);
    expect(updated.dropped).toEqual([]);
    expect(texts(updated)).toEqual([KEPT, 'greet is exported.']);
    // Left out when written, not only hidden when read: the stored version itself does not hold the words.
    const stored = await json<unknown>(`/api/dossiers/${topicId}/versions/2`);
    expect(JSON.stringify(stored).toLowerCase()).not.toContain('template string');

    // Every read path: recall's plan, `weft dossier`, and the request `weft compile` builds.
    const after = await ask.plan();
    expect(after.block).toContain('greet is exported');
    expect(after.block).not.toContain('template string');
    const cliDossier = await weft(['dossier', 'greet', '--json']);
    expect(cliDossier.code, cliDossier.stderr).toBe(0);
    expect(cliDossier.stdout).toContain('greet is exported');
    expect(cliDossier.stdout.toLowerCase()).not.toContain('template string');
    const compiled = await weft(['compile', ask.file, '--node', ask.target, '--no-memory', '--json']);
    expect(compiled.code, compiled.stderr).toBe(0);
    const printed = JSON.parse(compiled.stdout) as { recall: { sent: boolean }; request: unknown };
    expect(printed.recall.sent).toBe(true);
    expect(JSON.stringify(printed.request)).toContain('greet is exported');
    expect(JSON.stringify(printed.request).toLowerCase()).not.toContain('template string');
  }, 120_000);

  it('with review on, a dossier’s new sentences wait in the Inbox; accepted ones join it, rejected ones never return', async () => {
    const settings = await json<{ memoryAutoAccept: { profileFacts: boolean; dossierSentences: boolean } }>(
      '/api/settings',
      'PUT',
      { memoryAutoAccept: { profileFacts: false, dossierSentences: false } },
    );
    expect(settings.memoryAutoAccept).toEqual({ profileFacts: false, dossierSentences: false });
    // Changing the other switch keeps this one as it was.
    const kept = await json<typeof settings>('/api/settings', 'PUT', { memoryAutoAccept: { profileFacts: false } });
    expect(kept.memoryAutoAccept.dossierSentences).toBe(false);

    const source = new TestCanvas({
      idPrefix: 'fw-n',
      document: emptyCanvasDocument({ id: 'canvas-fw', name: 'Fw', workingDirectory: CLAUDE_REPO, createdAt: 1 }),
    });
    const node = source.addQuestion('How should farewell differ from greet?');
    source.answer(node, 'It says so long.');
    await atlas.server.context.canvases.write('canvas-fw', source.document(), { baseRevision: null });
    const answered = source.document().nodes.find((each) => each.id === node);
    const cited = `canvas:canvas-fw#${node}@${answered?.kind === 'question' ? answered.versions[0]!.id : ''}`;
    const etag = (await api('/api/topics')).headers.get('etag')!;
    const topicId = (
      await json<{ record: TopicRecord }>('/api/topics', 'POST', { name: 'farewell' }, etag)
    ).record.topics.find((topic) => topic.name === 'farewell')!.id;
    const store = dossierStoreFor(atlas.server.context);
    const ACCEPTED = 'farewell prints goodbye and the name.';
    const REJECTED = 'farewell was written by a famous poet.';
    const LATER = 'farewell shares its template with greet.';
    const build = async (sentences: { text: string; id?: string }[], fact: string) => {
      store.fileFact({ text: fact, turnKey: cited, topicIds: [topicId] });
      const plan = await json<DossierPlan>(`/api/dossiers/${topicId}/plan?mode=update`);
      provider.script({
        text: JSON.stringify({
          what: sentences.map((sentence) => ({ ...sentence, citations: [cited] })),
          decisions: [],
          status: [],
          open: [],
        }),
      });
      return json<DossierView>(`/api/dossiers/${topicId}/build`, 'POST', {
        mode: 'update',
        turnKeys: plan.turns.map((turn) => turn.turnKey),
        factIds: plan.facts.map((each) => each.id),
      });
    };
    const ask = await recallFile('What does farewell print?', 'canvas-fw-ask');
    const inbox = () => json<DossierSentenceInbox>('/api/dossier-sentences');

    // Nothing the run wrote reaches the dossier or recall: both sentences wait, with their cited turn as evidence.
    const first = await build([{ text: ACCEPTED }, { text: REJECTED }], 'farewell is new.');
    expect(texts(first)).toEqual([]);
    const waiting = await inbox();
    expect(waiting.autoAccept).toBe(false);
    expect(waiting.proposals.map((each) => [each.text, each.topicId, each.citations])).toEqual([
      [REJECTED, topicId, [cited]],
      [ACCEPTED, topicId, [cited]],
    ]);
    expect((await ask.plan()).block ?? '').not.toContain('goodbye');
    const proposed = await json<MemoryJournalPage>('/api/memory/journal?op=memory-proposed');
    expect(proposed.entries.filter((entry) => entry.event.meta.kind === 'dossier-sentence')).toHaveLength(2);
    expect(JSON.stringify(proposed)).not.toContain('goodbye');

    // Accepted: in the dossier and recall. Rejected: its words put aside, listed, journaled.
    const accept = waiting.proposals.find((each) => each.text === ACCEPTED)!;
    const reject = waiting.proposals.find((each) => each.text === REJECTED)!;
    await json(`/api/dossier-sentences/${accept.id}/accept`, 'POST');
    await json(`/api/dossier-sentences/${reject.id}/reject`, 'POST');
    expect((await api(`/api/dossier-sentences/${reject.id}/accept`, 'POST')).status).toBe(404);
    expect(texts(await json<DossierView>(`/api/dossiers/${topicId}`))).toEqual([ACCEPTED]);
    expect((await ask.plan()).block).toContain('goodbye');
    expect((await ask.plan()).block).not.toContain('famous poet');
    const listed = await json<PutAsideListResponse>('/api/memory/put-asides');
    expect(listed.items[0]).toMatchObject({ kind: 'dossier-sentence', reason: 'rejected', excerpt: REJECTED });
    const decided = await json<MemoryJournalPage>('/api/memory/journal?limit=10');
    expect(decided.entries.map((entry) => entry.event.op)).toEqual(
      expect.arrayContaining(['memory-accepted', 'memory-rejected', 'memory-put-aside']),
    );

    // The next update writes the rejected words again and one new sentence: only the new one waits.
    const second = await build(
      [{ text: ACCEPTED, id: accept.id }, { text: '  Farewell was WRITTEN by a famous poet. ' }, { text: LATER }],
      'farewell shares code.',
    );
    expect(texts(second)).toEqual([ACCEPTED]);
    expect((await inbox()).proposals.map((each) => each.text)).toEqual([LATER]);
    expect((await ask.plan()).block ?? '').not.toContain('famous poet');
  }, 120_000);
});
