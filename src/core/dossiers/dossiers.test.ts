import { describe, expect, it } from 'vitest';
import { DossierAnswerSchema, type Dossier, type PendingFact, type TopicRecord } from '../../../protocol/index.ts';
import {
  checkCitations,
  confirmedSelection,
  dossierFromAnswer,
  dossierPrompt,
  factsConsumed,
  labelledKeys,
  liveSentences,
  planDossier,
  retiredSentences,
  shownKeys,
  type DossierTurn,
} from './index.ts';

const turn = (key: string, question = `Question of ${key}?`): DossierTurn => ({
  turnKey: key,
  source: key.startsWith('canvas:') ? 'canvas' : 'session',
  title: 'Title',
  question,
  answer: `Answer of ${key}.`,
});
const fact = (id: string, turnKey: string | null = 'canvas:c#n@v'): PendingFact => ({
  id,
  topicId: 't1',
  text: `Fact ${id}.`,
  turnKey,
  filedAt: 1,
});
const dossier: Dossier = {
  format: 'weft.dossier',
  topicId: 't1',
  version: 2,
  writtenAt: 5,
  sections: {
    what: [{ id: 's1', text: 'Weft keeps canvases in IndexedDB.', citations: ['claude-code:a#1'] }],
    decisions: [{ id: 's2', text: 'Dexie was chosen.', citations: ['claude-code:a#1', 'canvas:c#n@v'] }],
    status: [{ id: 's3', text: 'Migrations run.', citations: ['canvas:c#gone@v'] }],
    open: [],
  },
};
let counter = 0;
const newId = () => `new-${++counter}`;

describe('live sentences (what recall may bring)', () => {
  it('leaves out a sentence whose every source is archived or deleted, keeps one with a live source', () => {
    const isLive = (key: string) => key !== 'canvas:c#gone@v' && key !== 'claude-code:a#1';
    expect(retiredSentences(dossier, isLive)).toEqual(['s1', 's3']);
    const live = liveSentences(dossier, isLive);
    expect(live.sections.what).toEqual([]);
    expect(live.sections.decisions.map((sentence) => sentence.id)).toEqual(['s2']);
    expect(live.sections.status).toEqual([]);
    expect(live.version).toBe(2);
    expect(liveSentences(dossier, () => true)).toEqual(dossier);
  });
});

describe('citations are checked against the keys the model was shown', () => {
  const input = {
    topic: { id: 't1', name: 'Storage' },
    current: dossier,
    turns: [turn('codex:b#4')],
    facts: [fact('f1')],
  };

  it('shows the new turns, the facts and the current dossier under their keys', () => {
    const { prompt } = dossierPrompt(input);
    expect(prompt).toContain('key codex:b#4');
    expect(prompt).toContain('{canvas:c#n@v} Fact f1.');
    expect(prompt).toContain('(s1) Weft keeps canvases in IndexedDB. {claude-code:a#1}');
    expect([...shownKeys(input)].sort()).toEqual(['canvas:c#gone@v', 'canvas:c#n@v', 'claude-code:a#1', 'codex:b#4']);
  });

  it('drops and counts a sentence citing an invented key; keeps a known id once; new sentences get new ids', () => {
    const answer = DossierAnswerSchema.parse({
      what: [{ id: 's1', text: 'Still IndexedDB.', citations: ['claude-code:a#1', 'codex:b#4'] }],
      decisions: [
        { text: 'Invented.', citations: ['codex:b#4', 'codex:zzz#9'] },
        { id: 's1', text: 'Reused id twice.', citations: ['codex:b#4'] },
      ],
      status: [{ id: 'made-up', text: 'New.', citations: ['codex:b#4', 'codex:b#4'] }],
      open: [],
    });
    const { dossier: next, dropped } = dossierFromAnswer(answer, {
      topicId: 't1',
      current: dossier,
      latestVersion: dossier.version,
      shown: shownKeys(input),
      now: 9,
      newId,
    });
    const checked = { dropped, sections: next.sections };
    expect(checkCitations(answer, shownKeys(input), dossier, newId).dropped).toEqual(dropped);
    expect(checked.dropped).toEqual([{ section: 'decisions', text: 'Invented.', unknownKeys: ['codex:zzz#9'] }]);
    expect(checked.sections.what).toEqual([
      { id: 's1', text: 'Still IndexedDB.', citations: ['claude-code:a#1', 'codex:b#4'] },
    ]);
    expect(checked.sections.decisions[0]!.id).not.toBe('s1');
    expect(checked.sections.status[0]).toMatchObject({ text: 'New.', citations: ['codex:b#4'] });
    expect(checked.sections.status[0]!.id).not.toBe('made-up');
  });

  it('the schema refuses a sentence without a citation, and a rebuild is numbered after the newest version', () => {
    const context = { topicId: 't1', current: null, latestVersion: 7, shown: new Set(['k']), now: 9, newId };
    const uncited = { what: [{ text: 'x', citations: [] }], decisions: [], status: [], open: [] };
    expect(DossierAnswerSchema.safeParse(uncited).success).toBe(false);
    const answer = DossierAnswerSchema.parse({
      what: [{ text: 'A.', citations: ['k'] }],
      decisions: [],
      status: [],
      open: [],
    });
    expect(dossierFromAnswer(answer, context).dossier).toMatchObject({ version: 8, writtenAt: 9, topicId: 't1' });
  });
});

describe('an update consumes only the facts it read', () => {
  it('a fact filed during the run waits; one gone meanwhile is not consumed', () => {
    const { consumed, waiting } = factsConsumed(['f1', 'f2'], [fact('f1'), fact('f3')]);
    expect(consumed).toEqual(['f1']);
    expect(waiting.map((each) => each.id)).toEqual(['f3']);
  });

  it('a confirmed run reads only what its plan showed', () => {
    const chosen = confirmedSelection(
      { turnKeys: ['a', 'gone'], factIds: ['f1'] },
      { turns: [turn('a'), turn('b')], facts: [fact('f1'), fact('f2')] },
    );
    expect(chosen.turns.map((each) => each.turnKey)).toEqual(['a']);
    expect(chosen.facts.map((each) => each.id)).toEqual(['f1']);
  });
});

describe('the plan shown before a run', () => {
  const record: TopicRecord = {
    format: 'weft.topics',
    topics: [{ id: 't1', name: 'Storage', createdAt: 1 }],
    labels: [
      { turnKey: 'a', contentHash: 'h', topicIds: ['t1'], by: 'name', at: 1 },
      { turnKey: 'b', contentHash: 'h', topicIds: ['t2'], by: 'name', at: 1 },
    ],
  };
  it('an update reads unread turns only; a rebuild reads all and starts from nothing; price from tokens', () => {
    expect(labelledKeys(record, 't1')).toEqual(['a']);
    const base = {
      topic: { id: 't1', name: 'Storage' },
      current: dossier,
      turns: [turn('a'), turn('b')],
      read: new Set(['a']),
      facts: [fact('f1')],
      modelId: 'p/m',
      pricePerMTokIn: 2,
      estimateTokens: (text: string) => text.length,
    };
    const update = planDossier({ ...base, mode: 'update' });
    expect(update.plan.turns.map((each) => each.turnKey)).toEqual(['b']);
    expect(update.plan.outgoing.prompt).toContain('The dossier so far');
    expect(update.plan.inputTokens).toBe(update.plan.outgoing.system.length + update.plan.outgoing.prompt.length);
    expect(update.plan.price).toBeCloseTo((update.plan.inputTokens * 2) / 1_000_000);
    const rebuild = planDossier({ ...base, mode: 'rebuild', pricePerMTokIn: null });
    expect(rebuild.plan.turns.map((each) => each.turnKey)).toEqual(['a', 'b']);
    expect(rebuild.plan.outgoing.prompt).not.toContain('The dossier so far');
    expect(rebuild.plan.price).toBeNull();
  });
});
