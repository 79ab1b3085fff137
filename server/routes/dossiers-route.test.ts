import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DossierList, DossierPlan, DossierView, LabelJob, LabelPlan, TopicsState } from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { closeAtlasService } from '../atlas/atlas-registry.ts';
import { dossierStoreFor } from './dossier-services.ts';

const savedRoots = process.env.WEFT_SESSION_ROOTS;
let provider: ScriptedProvider;
let server: TestServer;
let exchanges: StoredExchanges;
let emptyRoots: string;

function call(path: string, method = 'GET', body?: unknown, etag?: string) {
  return server.api(path, {
    method,
    headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
async function json<T>(path: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await call(path, method, body);
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
async function createTopic(name: string): Promise<string> {
  const etag = (await call('/api/topics')).headers.get('etag')!;
  const state = (await (await call('/api/topics', 'POST', { name }, etag)).json()) as TopicsState;
  return state.record.topics.find((topic) => topic.name === name)!.id;
}
async function label(): Promise<void> {
  const shown = await json<LabelPlan>('/api/topics/label/plan');
  const body = { judgeModelId: shown.judgeModelId, toLabel: shown.toLabel, requests: shown.requests };
  expect((await call('/api/topics/label', 'POST', body)).status).toBe(202);
  for (;;) {
    const job = await json<LabelJob>('/api/topics/label');
    if (job.state !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const confirm = (plan: DossierPlan) => ({
  mode: plan.mode,
  turnKeys: plan.turns.map((turn) => turn.turnKey),
  factIds: plan.facts.map((fact) => fact.id),
});
const answer = (sections: Record<string, { id?: string; text: string; citations: string[] }[]>) =>
  JSON.stringify({ what: [], decisions: [], status: [], open: [], ...sections });

beforeAll(async () => {
  emptyRoots = mkdtempSync(join(tmpdir(), 'weft-no-sessions-'));
  process.env.WEFT_SESSION_ROOTS = emptyRoots;
  provider = await startScriptedProvider();
  server = await startTestServer();
  // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
  exchanges = new StoredExchanges(server);
  await call('/api/settings', 'PUT', {
    providers: [{ id: 'scripted', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['writer'] }],
    defaultModelId: 'scripted/writer',
  });
});
afterAll(async () => {
  await closeAtlasService(server.context);
  await server.dispose();
  await provider.close();
  rmSync(emptyRoots, { recursive: true, force: true });
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});

describe('dossiers over HTTP with a scripted chat model on 127.0.0.1', () => {
  it('files a project fact to its turn’s topic, or the inbox; the person files or discards an inbox fact', async () => {
    const storage = await createTopic('Storage');
    const labelled = await exchanges.store('canvas-f', {
      question: "Storage question: I'm building a sync engine on IndexedDB.",
      answer: 'Use Dexie.',
    });
    await label();
    const unclaimed = await exchanges.store('canvas-f', {
      question: "I'm building a compiler in Rust.",
      answer: 'Ok.',
    });
    for (const stored of [labelled, unclaimed])
      expect((await call('/api/memory/judge', 'POST', stored)).status).toBe(200);

    const list = await json<DossierList>('/api/dossiers');
    expect(list.dossiers.find((entry) => entry.topicId === storage)?.pending).toBe(1);
    expect(list.inbox.map((fact) => fact.turnKey)).toEqual([
      `canvas:canvas-f#${unclaimed.nodeId}@${unclaimed.versionId}`,
    ]);
    const view = await json<DossierView>(`/api/dossiers/${storage}`);
    expect(view.pendingFacts[0]).toMatchObject({
      turnKey: `canvas:canvas-f#${labelled.nodeId}@${labelled.versionId}`,
    });
    expect(view.pendingFacts[0]!.text).toContain('sync engine');

    const inboxFact = list.inbox[0]!;
    expect((await call(`/api/dossier-inbox/${inboxFact.id}/file`, 'POST', { topicId: 'nope' })).status).toBe(404);
    await json(`/api/dossier-inbox/${inboxFact.id}/file`, 'POST', { topicId: storage });
    expect((await json<DossierList>('/api/dossiers')).inbox).toEqual([]);
    expect((await json<DossierView>(`/api/dossiers/${storage}`)).pendingFacts).toHaveLength(2);
    const [discard] = dossierStoreFor(server.context).fileFact({ text: 'Unclaimed.', turnKey: null, topicIds: [] });
    expect((await call(`/api/dossier-inbox/${discard!.id}`, 'DELETE')).status).toBe(204);
    expect((await call(`/api/dossier-inbox/${discard!.id}`, 'DELETE')).status).toBe(404);
    expect(
      dossierStoreFor(server.context)
        .events()
        .map((event) => event.op),
    ).toEqual(expect.arrayContaining(['dossier-fact-filed', 'dossier-inbox-filed', 'dossier-inbox-discarded']));
  });

  it('a fact from a turn not labelled yet goes to the topic its words name; only an unclaimed one waits', async () => {
    const topic = await createTopic('Tauri');
    const stored = await exchanges.store('canvas-t', {
      question: "I'm building a desktop app with Tauri.",
      answer: 'Fine.',
    });
    expect((await call('/api/memory/judge', 'POST', stored)).status).toBe(200);
    const view = await json<DossierView>(`/api/dossiers/${topic}`);
    expect(view.pendingFacts.map((fact) => fact.text).join(' ')).toContain('Tauri');
    expect((await json<DossierList>('/api/dossiers')).inbox.map((fact) => fact.turnKey)).not.toContain(
      `canvas:canvas-t#${stored.nodeId}@${stored.versionId}`,
    );
  });

  it('plans first, sends exactly the plan, drops an invented citation, consumes only what it read', async () => {
    const topic = await createTopic('Layout');
    const first = await exchanges.store('canvas-d', { question: 'Layout: why flexbox?', answer: 'It wraps.' });
    const second = await exchanges.store('canvas-d', { question: 'Layout: grid or flex?', answer: 'Grid for 2D.' });
    await label();
    const keyOf = (stored: typeof first) => `canvas:canvas-d#${stored.nodeId}@${stored.versionId}`;
    const [fact] = dossierStoreFor(server.context).fileFact({
      text: 'Uses CSS grid.',
      turnKey: keyOf(first),
      topicIds: [topic],
    });

    const plan = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=update`);
    expect(plan.turns.map((turn) => turn.turnKey).sort()).toEqual([keyOf(first), keyOf(second)].sort());
    expect(plan.facts.map((each) => each.id)).toEqual([fact!.id]);
    expect(plan.modelId).toBe('scripted/writer');
    expect(plan.inputTokens).toBeGreaterThan(0);
    expect(plan.outgoing.prompt).toContain('It wraps.');

    // A fact filed after the plan was shown (while the model writes) is not read; it waits for the next run.
    provider.script({
      text: answer({
        what: [{ text: 'Layout uses grid and flex.', citations: [keyOf(first), keyOf(second)] }],
        open: [{ text: 'Invented source.', citations: ['claude-code:never-shown#1'] }],
      }),
    });
    const [late] = dossierStoreFor(server.context).fileFact({ text: 'Late.', turnKey: null, topicIds: [topic] });
    const before = provider.requests.length;
    const view = await json<DossierView>(`/api/dossiers/${topic}/build`, 'POST', confirm(plan));
    const sent = JSON.stringify(provider.requests.slice(before).map((request) => request.body));
    expect(provider.requests.length - before).toBe(1);
    // Structured output through the real provider path: a compatible server is asked for a JSON object.
    expect((provider.requests.at(-1)!.body as { response_format?: unknown }).response_format).toEqual({
      type: 'json_object',
    });
    expect(sent).toContain(JSON.stringify(plan.outgoing.prompt).slice(1, -1));
    expect(sent).not.toContain('Late.');
    expect(view.dossier?.version).toBe(1);
    expect(view.dossier?.sections.what.map((sentence) => sentence.text)).toEqual(['Layout uses grid and flex.']);
    expect(view.dossier?.sections.open).toEqual([]);
    expect(view.dropped).toEqual([
      { section: 'open', text: 'Invented source.', unknownKeys: ['claude-code:never-shown#1'] },
    ]);
    expect(view.pendingFacts.map((each) => each.id)).toEqual([late!.id]);
    expect(view.unreadTurns).toBe(0);
    expect(view.history).toMatchObject([{ version: 1, dropped: 1, turnsRead: 2, factsRead: 1 }]);

    // The next update reads only the waiting fact (no turns are unread) and keeps the sentence by id.
    const next = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=update`);
    expect(next.turns).toEqual([]);
    expect(next.facts.map((each) => each.id)).toEqual([late!.id]);
    const kept = view.dossier!.sections.what[0]!;
    provider.script({ text: answer({ what: [{ id: kept.id, text: kept.text, citations: kept.citations }] }) });
    const updated = await json<DossierView>(`/api/dossiers/${topic}/build`, 'POST', confirm(next));
    expect(updated.dossier?.version).toBe(2);
    expect(updated.dossier?.sections.what[0]!.id).toBe(kept.id);
    expect(updated.pendingFacts).toEqual([]);
    expect(updated.history.map((entry) => entry.version)).toEqual([2, 1]);
    expect(await json(`/api/dossiers/${topic}/versions/1`)).toEqual(view.dossier);

    // Archiving one source node marks nothing while another source lives; archiving both marks the sentence,
    // and no other turn's key changes.
    await exchanges.update('canvas-d', (canvas) => canvas.archive(first.nodeId));
    const oneLeft = await json<DossierView>(`/api/dossiers/${topic}`);
    expect(oneLeft.retired).toEqual([]);
    expect(oneLeft.dossier?.sections.what[0]!.citations).toContain(keyOf(second));
    const labels = (await json<TopicsState>('/api/topics')).record.labels.map((entry) => entry.turnKey);
    expect(labels).toContain(keyOf(second));
    await exchanges.update('canvas-d', (canvas) => canvas.archive(second.nodeId));
    expect((await json<DossierView>(`/api/dossiers/${topic}`)).retired).toEqual([kept.id]);

    // Nothing new: a run is refused rather than sent.
    const empty = await call(`/api/dossiers/${topic}/build`, 'POST', { mode: 'update', turnKeys: [], factIds: [] });
    expect(empty.status).toBe(400);
    expect(server.logger.lines.join('\n')).not.toContain('Layout uses grid');
  });

  it('a citation of a judge-extracted fact is known as inferred, never observed (#29)', async () => {
    const topic = await createTopic('Packaging');
    const read = await exchanges.store('canvas-p', { question: 'Packaging: dmg or pkg?', answer: 'A dmg.' });
    await label();
    // The fact's turn is not labelled with the topic: the run shows the judge's words under its key, not the turn.
    const said = await exchanges.store('canvas-p', { question: 'We notarize every build.', answer: 'Good.' });
    const keyOf = (stored: typeof read) => `canvas:canvas-p#${stored.nodeId}@${stored.versionId}`;
    dossierStoreFor(server.context).fileFact({ text: 'Notarizes builds.', turnKey: keyOf(said), topicIds: [topic] });
    const plan = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=update`);
    expect(plan.turns.map((turn) => turn.turnKey)).toEqual([keyOf(read)]);
    provider.script({
      text: answer({
        what: [{ text: 'Ships a dmg.', citations: [keyOf(read)] }],
        status: [{ text: 'Every build is notarized.', citations: [keyOf(said)] }],
      }),
    });
    const view = await json<DossierView>(`/api/dossiers/${topic}/build`, 'POST', confirm(plan));
    expect(view.dossier?.sections.status.map((sentence) => sentence.text)).toEqual(['Every build is notarized.']);
    // The turn the run read as written stays observed (unnamed); the fact's key is inferred, on every read.
    expect(view.citationKnownAs).toEqual({ [keyOf(said)]: 'inferred' });
    expect((await json<DossierView>(`/api/dossiers/${topic}`)).citationKnownAs).toEqual({
      [keyOf(said)]: 'inferred',
    });
  });

  it('redacts a credential in a turn before the plan shows it and before it is sent', async () => {
    const topic = await createTopic('Deploy');
    const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';
    await exchanges.store('canvas-k', { question: `Deploy: is ${key} the right key?`, answer: 'Rotate it.' });
    await label();
    const plan = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=update`);
    expect(plan.outgoing.prompt).toContain('Rotate it.');
    expect(plan.outgoing.prompt).not.toContain(key);
    expect(plan.outgoing.prompt).toContain('[redacted');
  });

  it('prices a CJK-heavy turn at no less than a token a CJK character (a length estimate gives a quarter)', async () => {
    const topic = await createTopic('Tokyo');
    const question = 'Tokyo: ' + '東京の倉庫はどこですか'.repeat(200);
    await exchanges.store('canvas-cjk', { question, answer: '倉庫は品川にあります'.repeat(200) });
    await label();
    const plan = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=update`);
    const sent = plan.outgoing.system + plan.outgoing.prompt;
    const cjk = sent.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
    expect(cjk).toBeGreaterThan(2500);
    expect(plan.inputTokens).toBeGreaterThanOrEqual(cjk);
  });

  it('a merged topic’s pending facts go to the kept topic, a deleted topic’s to the inbox (none is lost)', async () => {
    const from = await createTopic('Styling');
    const into = await createTopic('Design');
    const store = dossierStoreFor(server.context);
    const [fact] = store.fileFact({ text: 'Prefers CSS modules.', turnKey: null, topicIds: [from] });
    const etag = async () => (await call('/api/topics')).headers.get('etag')!;
    expect((await call(`/api/topics/${from}/merge`, 'POST', { into }, await etag())).status).toBe(200);
    expect(store.pending(into).map((each) => each.id)).toContain(fact!.id);
    expect((await call(`/api/topics/${into}`, 'DELETE', undefined, await etag())).status).toBe(200);
    expect((await json<DossierList>('/api/dossiers')).inbox.map((each) => each.id)).toContain(fact!.id);
    expect(store.events().map((event) => event.op)).toContain('dossier-facts-moved');
  });

  it('says since when each sentence holds, from the dossier’s history (#29.4): a rebuild keeps it, a rewording ends it', async () => {
    const topicId = await createTopic('Validity');
    const store = dossierStoreFor(server.context);
    const cite = ['canvas:nowhere#n@v'];
    const write = (version: number, writtenAt: number, what: { id: string; text: string }[]) =>
      store.writeVersion({
        topicId,
        mode: 'rebuild',
        modelId: 'scripted/writer',
        baseVersion: version - 1,
        dropped: [],
        turnsRead: [],
        factsRead: [],
        dossier: {
          format: 'weft.dossier',
          topicId,
          version,
          writtenAt,
          sections: { what: what.map((each) => ({ ...each, citations: cite })), decisions: [], status: [], open: [] },
        },
      });
    write(1, 1_000, [{ id: 'a', text: 'The sync engine uses SQLite.' }]);
    write(2, 2_000, [
      { id: 'a', text: 'The sync engine uses SQLite.' },
      { id: 'b', text: 'It ships monthly.' },
    ]);
    write(3, 3_000, [
      { id: 'z', text: 'The sync engine uses SQLite.' },
      { id: 'b', text: 'It ships weekly.' },
    ]);
    const view = await json<DossierView>(`/api/dossiers/${topicId}`);
    expect(view.validity).toEqual({ z: { from: 1_000, to: null }, b: { from: 3_000, to: null } });
    // Every citation here is a canvas turn (none read from an interrupted session): none is named.
    expect(view.citationKnownAs).toEqual({});
  });

  it('a model answer that is not the sections’ JSON writes nothing', async () => {
    const topic = await createTopic('Broken');
    await exchanges.store('canvas-b', { question: 'Broken build again?', answer: 'Yes.' });
    await label();
    const plan = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=rebuild`);
    provider.script({ text: 'Sorry, I cannot help with that.' });
    const refused = await call(`/api/dossiers/${topic}/build`, 'POST', confirm(plan));
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('dossier-answer-invalid');
    expect((await json<DossierView>(`/api/dossiers/${topic}`)).dossier).toBeNull();
  });

  it('asks an OpenAI model for the sections’ JSON schema; an object failing validation writes nothing', async () => {
    await call('/api/settings', 'PUT', {
      providers: [
        { id: 'scripted', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['writer'] },
        { id: 'oa', kind: 'openai', baseUrl: `${provider.url}/v1`, models: ['gpt-writer'], apiKey: 'sk-test-oa-1' },
      ],
      defaultModelId: 'scripted/writer',
    });
    const topic = await createTopic('Schema');
    const stored = await exchanges.store('canvas-o', { question: 'Schema: which format?', answer: 'JSON.' });
    await label();
    const key = `canvas:canvas-o#${stored.nodeId}@${stored.versionId}`;
    const plan = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=update&model=oa/gpt-writer`);
    expect(plan.modelId).toBe('oa/gpt-writer');

    // Valid JSON, but a sentence with no citation: the schema refuses the object, nothing is written.
    provider.script({ text: answer({ what: [{ text: 'Uncited.', citations: [] }] }) });
    const refused = await call(`/api/dossiers/${topic}/build`, 'POST', { ...confirm(plan), modelId: 'oa/gpt-writer' });
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('dossier-answer-invalid');
    expect((await json<DossierView>(`/api/dossiers/${topic}`)).dossier).toBeNull();
    const format = (
      provider.requests.at(-1)!.body as {
        response_format?: { type: string; json_schema?: { name: string; schema: { required?: string[] } } };
      }
    ).response_format;
    expect(format?.type).toBe('json_schema');
    expect(format?.json_schema?.name).toBe('dossier');
    expect(format?.json_schema?.schema.required).toEqual(['what', 'decisions', 'status', 'open']);

    provider.script({ text: answer({ status: [{ text: 'JSON it is.', citations: [key] }] }) });
    const written = await json<DossierView>(`/api/dossiers/${topic}/build`, 'POST', {
      ...confirm(plan),
      modelId: 'oa/gpt-writer',
    });
    expect(written.dossier?.sections.status.map((sentence) => sentence.text)).toEqual(['JSON it is.']);
    expect(written.history).toMatchObject([{ version: 1 }]);
  });

  it('Anthropic: a Claude model is sent the schema as its output format; an older one answers through a forced JSON tool', async () => {
    await call('/api/settings', 'PUT', {
      providers: [
        { id: 'scripted', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['writer'] },
        {
          id: 'an',
          kind: 'anthropic',
          baseUrl: `${provider.url}/v1`,
          models: ['claude-writer', 'writer-2'],
          apiKey: 'sk-ant-t1',
        },
      ],
      defaultModelId: 'scripted/writer',
    });
    const topic = await createTopic('Anthropic');
    const stored = await exchanges.store('canvas-an', { question: 'Anthropic: which tool?', answer: 'The json one.' });
    await label();
    const key = `canvas:canvas-an#${stored.nodeId}@${stored.versionId}`;
    const sections = {
      what: [{ text: 'Answers come structured.', citations: [key] }],
      decisions: [],
      status: [],
      open: [{ text: 'Invented.', citations: ['codex:never#1'] }],
    };
    const build = async (mode: 'update' | 'rebuild', modelId: string) => {
      const plan = await json<DossierPlan>(`/api/dossiers/${topic}/plan?mode=${mode}&model=${modelId}`);
      return json<DossierView>(`/api/dossiers/${topic}/build`, 'POST', { ...confirm(plan), modelId });
    };
    type Body = {
      output_config?: { format?: { type: string; schema: { required?: string[] } } };
      tools?: { name: string; input_schema: { required?: string[] } }[];
      tool_choice?: { type: string; name?: string };
    };

    provider.script({ text: JSON.stringify(sections) });
    const native = await build('update', 'an/claude-writer');
    const nativeBody = provider.requests.at(-1)!.body as Body;
    expect(nativeBody.output_config?.format?.type).toBe('json_schema');
    expect(nativeBody.output_config?.format?.schema.required).toEqual(['what', 'decisions', 'status', 'open']);
    expect(native.dossier?.sections.what.map((sentence) => sentence.text)).toEqual(['Answers come structured.']);
    expect(native.dropped).toEqual([{ section: 'open', text: 'Invented.', unknownKeys: ['codex:never#1'] }]);

    provider.script({ text: '', toolCalls: [{ name: 'json', input: sections }] });
    const tooled = await build('rebuild', 'an/writer-2');
    const toolBody = provider.requests.at(-1)!.body as Body;
    // The one tool, forced: the model must answer through it.
    expect(toolBody.tool_choice?.type).toBe('any');
    expect(toolBody.tools?.map((tool) => tool.name)).toEqual(['json']);
    expect(toolBody.tools?.find((tool) => tool.name === 'json')?.input_schema.required).toEqual([
      'what',
      'decisions',
      'status',
      'open',
    ]);
    expect(tooled.dossier?.version).toBe(2);
    expect(tooled.dossier?.sections.what.map((sentence) => sentence.text)).toEqual(['Answers come structured.']);
  });
});
