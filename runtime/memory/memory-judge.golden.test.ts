import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MemoryJudgeRequest,
  MemoryJudgeResponse,
  MemoryStateResponse,
  ProfileLine,
} from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { StoredExchanges, type ExchangeTexts } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/**
 * The golden set of the memory judge (C13–C14): ≥ 40 exchanges run in order on one real server, once with a
 * scripted OpenAI-compatible judge on 127.0.0.1 (through the real provider path: settings → registry → AI SDK →
 * HTTP) and once with no judge (the rule path). Each row lists what is admitted (`category: text`, `~` marks an
 * `inferred` line) and the refusal codes. A change to a prompt, a cut-off or a rule that moves a row fails here;
 * the prompts themselves are pinned by a hash.
 */

type Category = 'preference' | 'identity' | 'project';
/** What the scripted judge answers about a sentence: P(durable), the category and its P, P(stated), a line it covers. */
type Judgement = [durable: number, category?: Category, categoryP?: number, stated?: number, covers?: string];

const JUDGE: Record<string, Judgement> = {
  'I prefer tabs over spaces.': [0.9, 'preference', 0.9, 0.9],
  'Please always answer in British English.': [0.9, 'preference', 0.9, 0.9],
  "I'd rather see code than prose.": [0.85, 'preference', 0.8, 0.9],
  'My name is Ana Lopez.': [0.95, 'identity', 0.95, 0.95],
  'I work at Mozilla on Firefox.': [0.9, 'identity', 0.8, 0.9],
  'I am asking about Christophe, the chef.': [0.7, 'identity', 0.6, 0.8],
  'Christophe prefers spaces over tabs.': [0.2],
  'Summarise the thread below.': [0.05],
  "Continue from the agent's last turn.": [0.05],
  'Read the attached CV carefully.': [0.05],
  'I use the key sk-abcdefghijklmnopqrstuvwx for OpenAI.': [0.7, 'preference', 0.8, 0.9],
  'I use card 4111 1111 1111 1111 for all purchases.': [0.7, 'preference', 0.7, 0.9],
  'i prefer  TABS over spaces.': [0.9, 'preference', 0.9, 0.9],
  'I prefer spaces over tabs now.': [0.9, 'preference', 0.9, 0.9, 'I prefer tabs over spaces.'],
  'Please always answer in British English, with Oxford commas.': [
    0.9,
    'preference',
    0.9,
    0.9,
    'Please always answer in British English.',
  ],
  'As a nurse on night shifts, I need quick meals.': [0.8, 'identity', 0.7, 0.3],
  'Ugh, another long answer, just give me the command.': [0.7, 'preference', 0.8, 0.3],
  'I like this answer a lot.': [0.55, 'preference', 0.9, 0.9],
  'I mostly write Go these days.': [0.65, 'preference', 0.45, 0.9],
  "I'm building a compiler for a toy language.": [0.9, 'project', 0.8, 0.9],
  'my name is Ana Lopez, for the record.': [0.9, 'identity', 0.9, 0.9],
  'I love dark themes in every editor.': [0.9, 'preference', 0.9, 0.9],
  'I like green tea.': [0.8, 'preference', 0.9, 0.9],
  'I love long walks.': [0.8, 'preference', 0.9, 0.9],
  'I enjoy chess on Sundays.': [0.8, 'preference', 0.9, 0.9],
  'I hate loud music.': [0.8, 'preference', 0.9, 0.9],
  'Convert 5 miles please.': [0.1],
  'I prefer metric units in every answer.': [0.9, 'preference', 0.9, 0.9],
  'I am Maria and I work with Christophe.': [0.9, 'identity', 0.9, 0.9],
  'I live in Lyon with my partner.': [0.9, 'identity', 0.9, 0.9],
  "I'm not sure this is right.": [0.1],
  'I hate long answers, keep it short.': [0.9, 'preference', 0.9, 0.9],
  'My favourite language is OCaml.': [0.9, 'preference', 0.9, 0.9],
  'Our project uses PostgreSQL 16 everywhere.': [0.9, 'project', 0.9, 0.9],
  'Thanks, that helps a lot.': [0.05],
  'I use Linux at home.': [0.9, 'preference', 0.8, 0.9],
  'I use macOS at work.': [0.9, 'preference', 0.8, 0.9],
  'I usually prefer short answers in the morning.': [0.62, 'preference', 0.8, 0.9],
  'I am a data scientist at a bank.': [0.9, 'identity', 0.9, 0.9],
  'Christophe is my name, by the way.': [0.9, 'identity', 0.9, 0.9],
  'I really like it when you show the diff first.': [0.9, 'preference', 0.9, 0.9],
};

interface Row {
  question: string;
  note?: string;
  answer?: string;
  /** What else was wired into the ask (materials, mirrored turns, notes the app wrote) or sent ([Memory]). */
  context?: Pick<ExchangeTexts, 'materials' | 'mirrors' | 'memorySent'> & { appNote?: string };
  /** [admitted, refused] with the judge; `rule` when the rule path differs. */
  judge: [string[], string[]];
  rule?: [string[], string[]];
  /** After the row: the person deletes the line with this text, or undoes the row's admission. */
  then?: { delete: string } | 'undo';
}

const none: [string[], string[]] = [[], []];
const LONG = `I prefer answers that ${'go on and on about every detail of the topic, '.repeat(6)}end.`;

const ROWS: Row[] = [
  {
    question: 'I prefer tabs over spaces. How do I set that?',
    judge: [['preference: I prefer tabs over spaces.'], []],
  },
  {
    question: 'Please always answer in British English.',
    judge: [['preference: Please always answer in British English.'], []],
  },
  { question: "I'd rather see code than prose.", judge: [["preference: I'd rather see code than prose."], []] },
  { question: 'My name is Ana Lopez.', judge: [['identity: My name is Ana Lopez.'], []] },
  { question: 'I work at Mozilla on Firefox.', judge: [['identity: I work at Mozilla on Firefox.'], []] },
  // Someone else's name is never the person's identity.
  { question: 'Can you tell me about Christophe and his restaurant?', judge: none },
  { question: 'I am asking about Christophe, the chef.', judge: [[], ['identity-not-stated']], rule: none },
  { question: 'Christophe prefers spaces over tabs.', judge: none },
  // The model's answer, a recalled excerpt, a mirrored agent turn and a material are never evidence.
  { question: 'What editor should I use?', answer: 'You are a Vim user who prefers dark themes.', judge: none },
  {
    question: 'Summarise the thread below.',
    context: { appNote: 'I prefer Emacs and I live in Oslo.' },
    judge: none,
  },
  {
    question: "Continue from the agent's last turn.",
    context: { mirrors: ['I am Bob, the maintainer. I prefer short commits.'] },
    judge: none,
  },
  {
    question: 'Read the attached CV carefully.',
    context: { materials: ['My name is Carla Diaz. I live in Madrid.'] },
    judge: none,
  },
  {
    question: 'Use my profile.',
    context: { memorySent: true },
    judge: none,
  },
  // Credentials, whoever proposes them.
  { question: 'I use the key sk-abcdefghijklmnopqrstuvwx for OpenAI.', judge: [[], ['credential']] },
  { question: 'I use card 4111 1111 1111 1111 for all purchases.', judge: [[], ['credential']] },
  // Duplicates (normalised text).
  { question: 'I prefer tabs over spaces.', judge: [[], ['duplicate']] },
  { question: 'i prefer  TABS over spaces.', judge: [[], ['duplicate']] },
  // A contradiction and a refinement replace their line with the judge; the rule path can only add.
  { question: 'I prefer spaces over tabs now.', judge: [['preference: I prefer spaces over tabs now.'], []] },
  {
    question: 'Please always answer in British English, with Oxford commas.',
    judge: [['preference: Please always answer in British English, with Oxford commas.'], []],
  },
  // Implied: identity refused, a preference kept as inferred.
  { question: 'As a nurse on night shifts, I need quick meals.', judge: [[], ['identity-not-stated']], rule: none },
  {
    question: 'Ugh, another long answer, just give me the command.',
    judge: [['~preference: Ugh, another long answer, just give me the command.'], []],
    rule: none,
  },
  // Cut-offs: durable 0.55 < 0.6 and category 0.45 < 0.5 keep nothing; 0.62 ≥ 0.6 keeps the line.
  // The rule path refuses it too: a reaction to the conversation is not a lasting preference.
  { question: 'I like this answer a lot.', judge: none, rule: [[], ['not-durable']] },
  { question: 'I mostly write Go these days.', judge: none },
  {
    question: 'I usually prefer short answers in the morning.',
    judge: [['preference: I usually prefer short answers in the morning.'], []],
  },
  // Project facts are admitted for a dossier, never written into the profile.
  {
    question: "I'm building a compiler for a toy language.",
    judge: [["project: I'm building a compiler for a toy language."], []],
  },
  {
    question: 'Our project uses PostgreSQL 16 everywhere.',
    judge: [['project: Our project uses PostgreSQL 16 everywhere.'], []],
  },
  // A deleted line, re-asserted and reworded, stays refused.
  { question: 'I am a data scientist at a bank.', judge: [['identity: I am a data scientist at a bank.'], []] },
  {
    question: 'What should I cook tonight?',
    judge: none,
    then: { delete: 'My name is Ana Lopez.' },
  },
  { question: 'My name is Ana Lopez.', judge: [[], ['refused-by-person']] },
  { question: 'my name is Ana Lopez, for the record.', judge: [[], ['refused-by-person']] },
  // An undone admission is refused after.
  {
    question: 'I love dark themes in every editor.',
    judge: [['preference: I love dark themes in every editor.'], []],
    then: 'undo',
  },
  { question: 'I love dark themes in every editor.', judge: [[], ['refused-by-person']] },
  // Three additions per canvas per visit.
  {
    question: 'I like green tea. I love long walks. I enjoy chess on Sundays. I hate loud music.',
    judge: [
      ['preference: I like green tea.', 'preference: I love long walks.', 'preference: I enjoy chess on Sundays.'],
      ['visit-limit'],
    ],
  },
  // A note the person wrote is their words too.
  {
    question: 'Convert 5 miles please.',
    note: 'I prefer metric units in every answer.',
    judge: [['preference: I prefer metric units in every answer.'], []],
  },
  { question: 'I am Maria and I work with Christophe.', judge: [[], ['identity-not-stated']] },
  { question: 'I live in Lyon with my partner.', judge: [['identity: I live in Lyon with my partner.'], []] },
  { question: "I'm not sure this is right.", judge: none },
  { question: 'Do I prefer tabs or spaces?', judge: none },
  { question: "I'm Portuguese.", judge: none },
  { question: 'I hate long answers, keep it short.', judge: [['preference: I hate long answers, keep it short.'], []] },
  { question: 'My favourite language is OCaml.', judge: [['preference: My favourite language is OCaml.'], []] },
  { question: 'Thanks, that helps a lot.', answer: 'Noted: you live in Paris.', judge: none },
  {
    question: 'Which distro?',
    note: 'I use Linux at home.\nI use macOS at work.',
    judge: [['preference: I use Linux at home.', 'preference: I use macOS at work.'], []],
  },
  { question: LONG, judge: none },
  { question: 'Christophe is my name, by the way.', judge: [[], ['identity-not-stated']], rule: none },
  {
    question: 'I really like it when you show the diff first.',
    judge: [['preference: I really like it when you show the diff first.'], []],
  },
];

/** The current lines each run must end with. */
const FINAL: Record<'judge' | 'rule', { preferences: string[]; identity: string[] }> = {
  judge: {
    preferences: [
      'I prefer spaces over tabs now.',
      'Please always answer in British English, with Oxford commas.',
      "I'd rather see code than prose.",
      '~Ugh, another long answer, just give me the command.',
      'I usually prefer short answers in the morning.',
      'I like green tea.',
      'I love long walks.',
      'I enjoy chess on Sundays.',
      'I prefer metric units in every answer.',
      'I hate long answers, keep it short.',
      'My favourite language is OCaml.',
      'I use Linux at home.',
      'I use macOS at work.',
      'I really like it when you show the diff first.',
    ],
    identity: ['I work at Mozilla on Firefox.', 'I am a data scientist at a bank.', 'I live in Lyon with my partner.'],
  },
  rule: {
    preferences: [
      'I prefer tabs over spaces.',
      'Please always answer in British English.',
      "I'd rather see code than prose.",
      'I prefer spaces over tabs now.',
      'Please always answer in British English, with Oxford commas.',
      'I usually prefer short answers in the morning.',
      'I like green tea.',
      'I love long walks.',
      'I enjoy chess on Sundays.',
      'I prefer metric units in every answer.',
      'I hate long answers, keep it short.',
      'My favourite language is OCaml.',
      'I use Linux at home.',
      'I use macOS at work.',
      'I really like it when you show the diff first.',
    ],
    identity: ['I work at Mozilla on Firefox.', 'I am a data scientist at a bank.', 'I live in Lyon with my partner.'],
  },
};

/** SHA-256 over every prompt the judge was sent, in order: a prompt change must be a deliberate golden update. */
const PROMPTS_HASH = '4565d3e06d32ea1dfecba29b72ad6074f5cca8f6b80a76e782ab20cd5e3a8342';

function probabilities(prompt: string, judgement: Judgement): Record<string, number> {
  const kind = /Decision: (\S+)/.exec(prompt)?.[1];
  const [durable, category, categoryP = 0, stated = 0, covers] = judgement;
  if (kind === 'memory-durable') return { durable, passing: 1 - durable };
  if (kind === 'memory-category') {
    const rest = (1 - categoryP) / 2;
    return { preference: rest, identity: rest, project: rest, [category ?? 'preference']: categoryP };
  }
  if (kind === 'memory-stated') return { stated, implied: 1 - stated };
  if (kind === 'memory-covers') {
    const line = covers && new RegExp(`^(\\S+): ${escape(covers)}$`, 'm').exec(prompt)?.[1];
    return line ? { none: 0.15, [line]: 0.85 } : { none: 1 };
  }
  throw new Error(`unexpected decision ${kind}`);
}

/** The merge model's operations: replace the line the table says the fact covers, else add it. */
function mergeOperations(prompt: string, fact: string) {
  const covers = JUDGE[fact]?.[4];
  const line = covers && new RegExp(`^(\\S+): ${escape(covers)}$`, 'm').exec(prompt)?.[1];
  return { operations: [line ? { op: 'replace', lineIds: [line], text: fact } : { op: 'add', text: fact }] };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The scripted judge: reads the sentence out of the real prompt and answers with the table's probabilities. */
function scriptedJudge(prompts: string[]) {
  return (body: unknown) => {
    const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
    const user = messages.find((message) => message.role === 'user');
    const prompt =
      typeof user?.content === 'string'
        ? user.content
        : ((user?.content as { text?: string }[] | undefined)?.map((part) => part.text ?? '').join('') ?? '');
    prompts.push(prompt);
    const fact = /\[New fact, in the person's words\]\n(.*)\n/.exec(prompt)?.[1];
    if (fact !== undefined) return { text: JSON.stringify(mergeOperations(prompt, fact)) };
    const sentence = /\[Sentence\]\n(.*)\n/.exec(prompt)?.[1] ?? '';
    const judgement = JUDGE[sentence] ?? [0.05];
    return { text: JSON.stringify(probabilities(prompt, judgement)) };
  };
}

function label(entry: MemoryJudgeResponse['activity'][number], lines: ProfileLine[]): string {
  const inferred = lines.find((line) => line.id === entry.lineId)?.evidence === 'inferred';
  return `${inferred ? '~' : ''}${entry.category}: ${entry.text}`;
}

async function runGolden(server: TestServer, path: 'judge' | 'rule') {
  const api = (url: string, init: RequestInit = {}) => server.api(url, init);
  const read = async () => (await (await api('/api/memory')).json()) as MemoryStateResponse;
  const outcomes: [string[], string[]][] = [];
  const exchanges = new StoredExchanges(server);
  for (const [index, row] of ROWS.entries()) {
    const { appNote, ...context } = row.context ?? {};
    // A canvas per row: the server allows three additions per canvas per visit, and each row is its own visit.
    const stored = await exchanges.store(`golden-${index}`, {
      question: row.question,
      notes: [...(row.note ? [row.note] : []), ...(appNote ? [{ text: appNote, author: 'app' as const }] : [])],
      answer: row.answer ?? 'Here is an answer.',
      ...context,
    });
    const request: MemoryJudgeRequest = stored;
    const response = await api('/api/memory/judge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    const judged = (await response.json()) as MemoryJudgeResponse;
    expect(judged.path, row.question).toBe(path);
    const state = await read();
    const lines = [...state.profile.documents.preferences, ...state.profile.documents.identity];
    outcomes.push([
      judged.activity.filter((entry) => entry.kind === 'admitted').map((entry) => label(entry, lines)),
      judged.activity.filter((entry) => entry.kind === 'refused').map((entry) => entry.reason!),
    ]);
    if (row.then === 'undo') {
      expect((await api(`/api/memory/undo/${judged.undo!.id}`, { method: 'POST' })).status).toBe(200);
    } else if (row.then) {
      const target = row.then.delete;
      const line = lines.find((candidate) => candidate.text === target && candidate.ended === null)!;
      const etag = `"${state.revision}"`;
      expect(
        (await api(`/api/memory/lines/${line.id}`, { method: 'DELETE', headers: { 'if-match': etag } })).status,
      ).toBe(200);
    }
  }
  const expected = ROWS.map((row) => (path === 'rule' ? (row.rule ?? row.judge) : row.judge));
  expect(outcomes.map((outcome, index) => [ROWS[index]!.question.slice(0, 60), outcome])).toEqual(
    expected.map((outcome, index) => [ROWS[index]!.question.slice(0, 60), outcome]),
  );
  const state = await read();
  const current = (document: 'preferences' | 'identity') =>
    state.profile.documents[document]
      .filter((line) => line.ended === null)
      .map((line) => `${line.evidence === 'inferred' ? '~' : ''}${line.text}`);
  expect({ preferences: current('preferences'), identity: current('identity') }).toEqual(FINAL[path]);
  return state;
}

describe('memory judge golden set', () => {
  expect(ROWS.length).toBeGreaterThanOrEqual(40);

  describe('with a scripted judge on 127.0.0.1', () => {
    let provider: ScriptedProvider;
    let server: TestServer;
    const prompts: string[] = [];
    beforeAll(async () => {
      provider = await startScriptedProvider();
      provider.replyFor = scriptedJudge(prompts);
      server = await startTestServer();
      // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
      await acceptProfileFactsAutomatically(server);
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

    it('admits and refuses exactly the golden rows, and keeps history of what the judge replaced', async () => {
      const state = await runGolden(server, 'judge');
      // The contradiction replaced its line: kept, ended, pointing at the line that replaced it.
      const tabs = state.profile.documents.preferences.find((line) => line.text === 'I prefer tabs over spaces.')!;
      const spaces = state.profile.documents.preferences.find(
        (line) => line.text === 'I prefer spaces over tabs now.',
      )!;
      expect(tabs.ended).toEqual({ reason: 'replaced', at: expect.any(Number), by: spaces.id });
      expect(spaces.supersedes).toEqual([tabs.id]);
      // Nothing the person did not write was ever put to the judge as the sentence in question.
      expect(prompts.length).toBeGreaterThan(40);
      const merges = prompts.filter((prompt) => prompt.startsWith('Task: memory-merge'));
      expect(merges.length).toBeGreaterThan(10);
      for (const prompt of prompts) {
        const sentence = /\[Sentence\]\n(.*)\n|\[New fact, in the person's words\]\n(.*)\n/
          .exec(prompt)!
          .slice(1)
          .join('');
        expect(
          ROWS.some((row) => row.question.includes(sentence) || row.note?.includes(sentence)),
          sentence,
        ).toBe(true);
      }
      // Line ids are random; everything else in the prompts is fixed.
      const fixed = prompts.map((prompt) => prompt.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<line>'));
      expect(createHash('sha256').update(fixed.join('\u0000')).digest('hex')).toBe(PROMPTS_HASH);
    });
  });

  describe('with no judge (the rule path)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
      // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
      await acceptProfileFactsAutomatically(server);
    });
    afterAll(async () => {
      await server.dispose();
    });

    it('admits and refuses exactly the golden rows', async () => {
      await runGolden(server, 'rule');
    });
  });
});
