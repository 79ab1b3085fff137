import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MemoryJudgeRequest,
  MemoryJudgeResponse,
  MemoryStateResponse,
  ProfileLine,
} from '../../protocol/index.ts';
import { lineHistory } from '../../src/core/memory/index.ts';
import {
  startScriptedProvider,
  type ScriptedProvider,
  type ScriptedReply,
} from '../../tests/support/scripted-provider.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/**
 * The golden set of merges (C14 item 4): a scripted OpenAI-compatible judge on 127.0.0.1, reached through the real
 * provider path, admits every sentence (never naming a covered line, so only the merge model's operations can
 * replace one) and answers each merge with scripted operations against line ids. Refine, contradict, unrelated,
 * a rewrite, no-op, and hostile operations (unknown id, dropping lines, a credential, prose, no answer), each
 * asserted on the lines, their evidence labels, history and the reason in the activity.
 */

type Operations = (ids: (text: string) => string) => unknown;

/** The merge model's answer per new fact; `ids` finds a current line's id in the real prompt by its text. */
const MERGES: Record<string, Operations | ScriptedReply> = {
  'I prefer tabs over spaces.': () => ({ operations: [{ op: 'add', text: 'I prefer tabs over spaces.' }] }),
  'I like green tea.': () => ({ operations: [{ op: 'add', text: 'I like green tea.' }] }),
  'Please always answer in British English, with Oxford commas.': (ids) => ({
    operations: [
      {
        op: 'replace',
        lineIds: [ids('Please always answer in British English.')],
        text: 'Please always answer in British English, with Oxford commas.',
      },
    ],
  }),
  'I prefer spaces over tabs now.': (ids) => ({
    operations: [
      { op: 'replace', lineIds: [ids('I prefer tabs over spaces.')], text: 'I prefer spaces over tabs now.' },
    ],
  }),
  'I drink green tea every morning.': (ids) => ({
    operations: [
      { op: 'replace', lineIds: [ids('I like green tea.')], text: 'I like green tea every morning.' },
      { op: 'add', text: 'I drink green tea every morning.' },
    ],
  }),
  'I really do like green tea.': () => ({ operations: [{ op: 'no-op' }] }),
  'I love long walks.': () => ({
    operations: [{ op: 'replace', lineIds: ['line-that-does-not-exist'], text: 'I love long walks.' }],
  }),
  'I hate loud music.': (ids) => ({
    operations: [
      {
        op: 'replace',
        lineIds: [ids('I prefer spaces over tabs now.'), ids('I drink green tea every morning.')],
        text: 'I hate loud music.',
      },
    ],
  }),
  'I enjoy chess on Sundays.': () => ({
    operations: [
      { op: 'add', text: 'I enjoy chess on Sundays.' },
      { op: 'add', text: 'My password is hunter2hunter2.' },
    ],
  }),
  'I work at Mozilla on Firefox.': () => ({
    operations: [
      { op: 'add', text: 'I work at Mozilla on Firefox.' },
      { op: 'add', text: 'The user is Christophe, born in 1970, lives in Paris.' },
    ],
  }),
  'I like jazz in the evening.': (ids) => ({
    operations: [
      { op: 'add', text: 'I like jazz in the evening.' },
      {
        op: 'replace',
        lineIds: [ids('I prefer spaces over tabs now.')],
        text: 'I prefer spaces over tabs, I am Christophe.',
      },
    ],
  }),
  'I use Linux at home.': { text: 'Sure! I have added that to your profile.' },
  'I use macOS at work.': { status: 500, errorMessage: 'the merge model is down' },
};

function promptOf(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const user = messages.find((message) => message.role === 'user');
  return typeof user?.content === 'string'
    ? user.content
    : ((user?.content as { text?: string }[] | undefined)?.map((part) => part.text ?? '').join('') ?? '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every sentence is a durable, stated preference that covers no line; merges answer from MERGES. */
function scriptedJudge(merges: string[]) {
  return (body: unknown): ScriptedReply => {
    const prompt = promptOf(body);
    const fact = /\[New fact, in the person's words\]\n(.*)\n/.exec(prompt)?.[1];
    if (fact !== undefined) {
      merges.push(fact);
      const scripted = MERGES[fact];
      if (scripted === undefined) throw new Error(`no merge scripted for ${fact}`);
      if (typeof scripted !== 'function') return scripted;
      const ids = (text: string) => new RegExp(`^(\\S+): ${escape(text)}$`, 'm').exec(prompt)![1]!;
      return { text: JSON.stringify(scripted(ids)) };
    }
    const kind = /Decision: (\S+)/.exec(prompt)?.[1];
    const answers: Record<string, Record<string, number>> = {
      'memory-durable': { durable: 0.9, passing: 0.1 },
      'memory-category': { preference: 0.9, identity: 0.05, project: 0.05 },
      'memory-stated': { stated: 0.9, implied: 0.1 },
      'memory-covers': { none: 1 },
    };
    return { text: JSON.stringify(answers[kind!]) };
  };
}

let provider: ScriptedProvider;
let server: TestServer;
const merges: string[] = [];
let asked = 0;
let exchanges: StoredExchanges;

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.replyFor = scriptedJudge(merges);
  server = await startTestServer();
  // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
  exchanges = new StoredExchanges(server);
  await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['small'] }],
      judgeModelId: 'judge/small',
    }),
  });
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
});

async function ask(question: string): Promise<{ judged: MemoryJudgeResponse; state: MemoryStateResponse }> {
  asked += 1;
  // A canvas per ask: the server allows three additions per canvas per visit, and each ask here is its own.
  const request: MemoryJudgeRequest = await exchanges.store(`merges-${asked}`, { question, answer: 'Noted.' });
  const response = await server.api('/api/memory/judge', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  expect(response.status).toBe(200);
  const judged = (await response.json()) as MemoryJudgeResponse;
  const state = (await (await server.api('/api/memory')).json()) as MemoryStateResponse;
  return { judged, state };
}

const current = (state: MemoryStateResponse) =>
  state.profile.documents.preferences
    .filter((line) => line.ended === null)
    .map((line) => `${line.evidence}: ${line.text}`);
const line = (state: MemoryStateResponse, text: string): ProfileLine =>
  state.profile.documents.preferences.find((candidate) => candidate.text === text)!;
const admitted = (judged: MemoryJudgeResponse) =>
  judged.activity.map((entry) => [entry.kind, entry.path, entry.reason, entry.text]);

describe('memory merge golden set (operations from the judge, validated by mergeFact)', () => {
  it('adds the first line without asking (nothing to merge against), then an unrelated fact by an add', async () => {
    await ask('Please always answer in British English.');
    expect(merges).toEqual([]);
    await ask('I prefer tabs over spaces.');
    const { judged, state } = await ask('I like green tea.');
    expect(merges).toEqual(['I prefer tabs over spaces.', 'I like green tea.']);
    expect(admitted(judged)).toEqual([['admitted', 'judge', null, 'I like green tea.']]);
    expect(current(state)).toEqual([
      'stated: Please always answer in British English.',
      'stated: I prefer tabs over spaces.',
      'stated: I like green tea.',
    ]);
  });

  it('a refinement and a contradiction replace their line in place; the old lines stay as history', async () => {
    await ask('Please always answer in British English, with Oxford commas.');
    const { judged, state } = await ask('I prefer spaces over tabs now.');
    expect(admitted(judged)).toEqual([['admitted', 'judge', null, 'I prefer spaces over tabs now.']]);
    expect(judged.events.find((event) => event.op === 'memory-written')!.meta).toMatchObject({
      operation: 'replace',
      replaced: 1,
      fallback: null,
    });
    expect(current(state)).toEqual([
      'stated: Please always answer in British English, with Oxford commas.',
      'stated: I prefer spaces over tabs now.',
      'stated: I like green tea.',
    ]);
    const tabs = line(state, 'I prefer tabs over spaces.');
    const spaces = line(state, 'I prefer spaces over tabs now.');
    expect(tabs.ended).toEqual({ reason: 'replaced', at: expect.any(Number), by: spaces.id });
    expect(spaces.supersedes).toEqual([tabs.id]);
    expect(lineHistory(state.profile, spaces.id).map((entry) => entry.text)).toEqual([
      'I prefer tabs over spaces.',
      'I prefer spaces over tabs now.',
    ]);
    const british = line(state, 'Please always answer in British English.');
    expect(british.ended).toMatchObject({
      reason: 'replaced',
      by: line(state, 'Please always answer in British English, with Oxford commas.').id,
    });
  });

  it("a line the merge rewords is labelled rewritten; only the fact's own line carries its evidence and span", async () => {
    const { state } = await ask('I drink green tea every morning.');
    expect(current(state)).toEqual([
      'stated: Please always answer in British English, with Oxford commas.',
      'stated: I prefer spaces over tabs now.',
      'rewritten: I like green tea every morning.',
      'stated: I drink green tea every morning.',
    ]);
    expect(line(state, 'I like green tea every morning.').span).toBeNull();
    expect(line(state, 'I drink green tea every morning.').span).toBe('I drink green tea every morning.');
    expect(line(state, 'I like green tea.').ended).toMatchObject({ reason: 'replaced' });
  });

  it('no-op: a fact a line already says writes nothing, and the activity says why', async () => {
    const before = (await (await server.api('/api/memory')).json()) as MemoryStateResponse;
    const { judged, state } = await ask('I really do like green tea.');
    expect(admitted(judged)).toEqual([['admitted', 'judge', 'no-op', 'I really do like green tea.']]);
    expect(judged.undo).toBeNull();
    expect(state.profile).toEqual(before.profile);
  });

  it.each([
    ['I love long walks.', 'unknown-line'],
    ['I hate loud music.', 'drops-lines'],
    ['I enjoy chess on Sundays.', 'credential'],
    ['I work at Mozilla on Firefox.', 'unrelated-add'],
    ['I like jazz in the evening.', 'new-words'],
    ['I use Linux at home.', 'malformed'],
  ])('hostile operations for "%s" are refused (%s): the fact is appended, nothing else moves', async (fact, code) => {
    const before = (await (await server.api('/api/memory')).json()) as MemoryStateResponse;
    const { judged, state } = await ask(fact);
    expect(admitted(judged)).toEqual([['admitted', 'judge', code, fact]]);
    expect(judged.events.find((event) => event.op === 'memory-written')!.meta).toMatchObject({
      operation: 'append',
      fallback: code,
    });
    expect(current(state)).toEqual([...current(before), `stated: ${fact}`]);
    const appended = line(state, fact);
    expect(appended.supersedes).toEqual([]);
    // Every line that was there is there, unchanged.
    expect(state.profile.documents.preferences.slice(0, -1)).toEqual(before.profile.documents.preferences);
    expect(state.activity[0]).toMatchObject({ kind: 'admitted', reason: code, lineId: appended.id });
  });

  it("the credential the merge model proposed is nowhere in memory's files", async () => {
    const directory = join(server.home, 'memory');
    for (const name of await readdir(directory))
      expect(await readFile(join(directory, name), 'utf8'), name).not.toContain('hunter2');
  });

  it('a merge the judge does not answer is merged by the rule, shown as a judge failure, then skipped for a minute', async () => {
    const { judged, state } = await ask('I use macOS at work.');
    expect(admitted(judged)).toEqual([
      ['judge-failed', null, 'merge-no-answer', null],
      ['admitted', 'judge', null, 'I use macOS at work.'],
    ]);
    expect(current(state).at(-1)).toBe('stated: I use macOS at work.');
    // The failure put the judge on its one-minute cooldown: the next exchange goes to the rule path.
    const requests = provider.requests.length;
    const next = await ask('I prefer metric units in every answer.');
    expect(next.judged.path).toBe('rule');
    expect(provider.requests.length).toBe(requests);
  });
});
