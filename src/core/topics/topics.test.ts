import { describe, expect, it } from 'vitest';
import type { LabelTurn, TopicRecord } from '../../../protocol/index.ts';
import { jsHashPort } from '../hash-port.ts';
import {
  canvasLabelKey,
  labelContentHash,
  labelRequest,
  labelsFromProbabilities,
  planLabelling,
  turnOpening,
  withLabel,
} from './label-plan.ts';
import { matchTopicsByName } from './match-topics.ts';
import { createTopic, deleteTopic, emptyTopicRecord, findTopic, mergeTopic, renameTopic } from './topic-table.ts';

function unwrap<Value>(result: { ok: true; value: Value } | { ok: false; error: string }): Value {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

function table(...names: string[]): TopicRecord {
  let counter = 0;
  let record = emptyTopicRecord();
  for (const name of names) record = unwrap(createTopic(record, name, { now: 1, newId: () => `t${++counter}` })).record;
  return record;
}

const turn = (turnKey: string, opening: string): LabelTurn => ({ turnKey, source: 'session', title: 'x', opening });
const planOptions = { hash: jsHashPort, judgeModelId: 'judge', pricePerMTokIn: 2, requestTokens: () => 100 };

describe('the topic table the person owns', () => {
  it('creates, renames, merges and deletes by stable id, each with an event', () => {
    const created = unwrap(createTopic(emptyTopicRecord(), '  Dexie   schema ', { now: 5, newId: () => 'a' }));
    expect(created.topic).toEqual({ id: 'a', name: 'Dexie schema', createdAt: 5 });
    expect(created.event).toEqual({ op: 'topic-created', objectId: 'a', meta: { topics: 1 } });
    const renamed = unwrap(renameTopic(created.record, 'a', 'Storage'));
    expect(renamed.record.topics[0]).toMatchObject({ id: 'a', name: 'Storage' });
    expect(renamed.event.op).toBe('topic-renamed');
  });

  it('refuses an empty, duplicate (any case) or over-long name and unknown ids', () => {
    const record = table('Dexie');
    const context = { now: 1, newId: () => 'b' };
    expect(createTopic(record, '   ', context)).toEqual({ ok: false, error: 'empty-name' });
    expect(createTopic(record, 'DEXIE', context)).toEqual({ ok: false, error: 'duplicate-name' });
    expect(createTopic(record, 'x'.repeat(81), context)).toEqual({ ok: false, error: 'name-too-long' });
    expect(renameTopic(record, 'nope', 'X')).toEqual({ ok: false, error: 'unknown-topic' });
    expect(renameTopic(record, 't1', 'dexie').ok).toBe(true);
    expect(mergeTopic(record, 't1', 't1')).toEqual({ ok: false, error: 'merge-into-self' });
  });

  it('a merge moves the labels onto the kept topic without duplicates; a delete removes only its own id', () => {
    let record = table('Dexie', 'IndexedDB', 'Layout');
    record = withLabel(record, { turnKey: 'k1', contentHash: 'h', topicIds: ['t1', 't2'], by: 'name', at: 1 });
    record = withLabel(record, { turnKey: 'k2', contentHash: 'h', topicIds: ['t2', 't3'], by: 'name', at: 1 });
    const merged = unwrap(mergeTopic(record, 't2', 't1'));
    expect(merged.record.topics.map((topic) => topic.id)).toEqual(['t1', 't3']);
    expect(merged.record.labels.map((label) => label.topicIds)).toEqual([['t1'], ['t1', 't3']]);
    expect(merged.event).toEqual({ op: 'topic-merged', objectId: 't1', meta: { from: 't2', labels: 2 } });
    const deleted = unwrap(deleteTopic(merged.record, 't1'));
    expect(deleted.record.labels.map((label) => label.topicIds)).toEqual([[], ['t3']]);
    expect(findTopic(deleted.record, 'layout')?.id).toBe('t3');
  });
});

describe('matching by name without a judge', () => {
  it('matches whole words regardless of case, never inside a word', () => {
    const record = table('Dexie', 'dark mode', 'C++');
    expect(matchTopicsByName("Why does dexie's schema break?", record.topics)).toEqual(['t1']);
    expect(matchTopicsByName('Dexie2 and undexied', record.topics)).toEqual([]);
    expect(matchTopicsByName('the Dark\n  Mode toggle', record.topics)).toEqual(['t2']);
    expect(matchTopicsByName('ported to C++ today', record.topics)).toEqual(['t3']);
  });
});

describe('labelling plan', () => {
  it('counts turns, requests, tokens and price and lists exactly the openings that leave', () => {
    const record = table('Dexie');
    const { plan, work } = planLabelling([turn('a', 'one'), turn('b', 'two')], record, planOptions);
    expect(plan).toMatchObject({ turns: 2, reused: 0, toLabel: 2, requests: 2, inputTokens: 200, price: 0.0004 });
    expect(plan.outgoing).toEqual([
      { turnKey: 'a', opening: 'one' },
      { turnKey: 'b', opening: 'two' },
    ]);
    expect(work).toHaveLength(2);
  });

  it('redacts a credential-like string before an opening can leave, even where the cut would split it', () => {
    const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';
    const opening = turnOpening(`Is ${key} still valid?`, 'Rotate it.');
    expect(opening).not.toContain(key);
    expect(opening).toContain('[redacted');
    expect(turnOpening(`Is ${key} still valid?`, '', 12)).not.toContain('sk-proj-A');
  });

  it('without a judge nothing leaves the machine and there is no price', () => {
    const { plan } = planLabelling([turn('a', 'one')], table('Dexie'), { ...planOptions, judgeModelId: null });
    expect(plan).toMatchObject({ toLabel: 1, requests: 0, price: null, judgeModelId: null, outgoing: [] });
  });

  it('reuses a label while the opening and the topic set are unchanged, and only then', () => {
    const record = table('Dexie');
    const labelled = withLabel(record, {
      turnKey: 'a',
      contentHash: labelContentHash('one', record.topics, jsHashPort),
      topicIds: [],
      by: 'judge',
      at: 1,
    });
    expect(planLabelling([turn('a', 'one')], labelled, planOptions).plan.reused).toBe(1);
    expect(planLabelling([turn('a', 'one, edited')], labelled, planOptions).plan.reused).toBe(0);
    const renamed = unwrap(renameTopic(labelled, 't1', 'Storage')).record;
    expect(planLabelling([turn('a', 'one')], renamed, planOptions).plan.reused).toBe(0);
  });

  it('keys a canvas turn by its version and cuts the opening at N characters', () => {
    expect(canvasLabelKey('c', 'n', 'v')).toBe('canvas:c#n@v');
    expect(turnOpening('Q?', 'A'.repeat(1000))).toHaveLength(400);
    expect(turnOpening('Q?', '', 10)).toBe('Q?');
  });

  it('asks the judge with topic ids and none, and keeps every topic at or above the cutoff', () => {
    const record = table('Dexie', 'Layout');
    expect(labelRequest({ opening: 'hello' }, record.topics).options).toEqual(['t1', 't2', 'none']);
    expect(labelsFromProbabilities({ t1: 0.5, t2: 0.3, none: 0.2 }, record.topics)).toEqual(['t1', 't2']);
    expect(labelsFromProbabilities({ t1: 0.1, t2: 0.1, none: 0.8 }, record.topics)).toEqual([]);
  });
});
