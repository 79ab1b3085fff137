import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LabelTurn, TopicRecord } from '../../protocol/index.ts';
import type { Result } from '../../src/core/index.ts';
import {
  createTopic,
  deleteTopic,
  findTopic,
  planLabelling,
  removeLabel,
  type LabelRemovalCode,
  type TopicEdit,
  type TopicEditCode,
} from '../../src/core/topics/index.ts';
import { nodeHashPort } from '../hash/index.ts';
import { runLabelling } from './label-job.ts';
import { TopicStore } from './topic-store.ts';

let directory = '';
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function unwrap<Value>(result: { ok: true; value: Value } | { ok: false; error: string }): Value {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

async function edit(
  store: TopicStore,
  change: (record: TopicRecord) => Result<TopicEdit, TopicEditCode | LabelRemovalCode>,
) {
  await store.update(null, ({ record }) => {
    const edited = unwrap(change(record));
    return { record: edited.record, events: [edited.event], result: null };
  });
}

/** A run by name over these turns, planned against the stored table, as the route and the CLI run it. */
async function label(store: TopicStore, turns: LabelTurn[]) {
  const { record } = await store.read();
  const { plan, work } = planLabelling(turns, record, {
    hash: nodeHashPort,
    judgeModelId: null,
    pricePerMTokIn: null,
    requestTokens: () => 0,
  });
  await runLabelling({
    store,
    work,
    topics: record.topics,
    reused: plan.reused,
    judged: false,
    decider: { decide: () => Promise.reject(new Error('no judge')) },
    now: () => 7,
    signal: new AbortController().signal,
  });
}

const turn = (opening: string): LabelTurn => ({ turnKey: 'claude-code:s1#2', source: 'session', title: 's', opening });

describe('a label the person removed (C15)', () => {
  it('is not given back by the next run while the turn is unchanged; a changed turn is judged afresh', async () => {
    directory = mkdtempSync(join(tmpdir(), 'weft-label-removal-'));
    const store = new TopicStore({ directory, now: () => 3, newId: randomUUID, hash: nodeHashPort });
    await edit(store, (record) => createTopic(record, 'Dexie', { now: 1, newId: () => 'dexie' }));
    await label(store, [turn('Dexie schema versions')]);
    expect((await store.read()).record.labels[0]!.topicIds).toEqual(['dexie']);

    await edit(store, (record) => removeLabel(record, 'dexie', 'claude-code:s1#2', 5));
    const removed = await store.read();
    expect(removed.record.labels[0]!.topicIds).toEqual([]);
    expect(removed.events.at(-1)).toMatchObject({
      op: 'topic-label-removed',
      objectId: 'dexie',
      meta: { turnKey: 'claude-code:s1#2' },
    });
    expect(removeLabel(removed.record, 'dexie', 'claude-code:s1#2', 6)).toEqual({ ok: false, error: 'not-labelled' });

    // A new topic changes the topic set: every turn is labelled again, and the person's removal still wins.
    await edit(store, (record) => createTopic(record, 'Schema', { now: 2, newId: () => 'schema' }));
    await label(store, [turn('Dexie schema versions')]);
    expect((await store.read()).record.labels[0]!.topicIds).toEqual(['schema']);

    // The turn's words changed under the same key: the removal was about the old words.
    await label(store, [turn('Dexie schema versions, and now the migration')]);
    expect((await store.read()).record.labels[0]!.topicIds).toEqual(['dexie', 'schema']);
  });

  it('goes with its topic when the topic is deleted', async () => {
    directory = mkdtempSync(join(tmpdir(), 'weft-label-removal-'));
    const store = new TopicStore({ directory, now: () => 3, newId: randomUUID, hash: nodeHashPort });
    await edit(store, (record) => createTopic(record, 'Dexie', { now: 1, newId: () => 'dexie' }));
    await label(store, [turn('Dexie schema versions')]);
    await edit(store, (record) => removeLabel(record, 'dexie', 'claude-code:s1#2', 5));
    expect((await store.read()).record.removed).toHaveLength(1);
    await edit(store, (record) => deleteTopic(record, findTopic(record, 'dexie')!.id));
    expect((await store.read()).record.removed).toEqual([]);
  });
});
