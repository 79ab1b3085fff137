import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTopic, planLabelling } from '../../src/core/topics/index.ts';
import { nodeHashPort } from '../hash/index.ts';
import { runLabelling } from './label-job.ts';
import { TopicStore } from './topic-store.ts';

let directory = '';
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('a labelling run that fails (C15)', () => {
  it('keeps the labels found before the failure and writes the run’s event with state failed', async () => {
    directory = mkdtempSync(join(tmpdir(), 'weft-label-fail-'));
    const store = new TopicStore({ directory, now: Date.now, newId: randomUUID, hash: nodeHashPort });
    await store.update(null, ({ record }) => {
      const created = createTopic(record, 'Dexie', { now: 1, newId: randomUUID });
      if (!created.ok) throw new Error(created.error);
      return { record: created.value.record, events: [created.value.event], result: null };
    });
    const { record } = await store.read();
    const turns = ['one', 'two', 'three'].map((word) => ({
      turnKey: `canvas:c#${word}@v`,
      source: 'canvas' as const,
      title: word,
      opening: `Dexie ${word}`,
    }));
    const { work } = planLabelling(turns, record, {
      hash: nodeHashPort,
      judgeModelId: 'judge/m',
      pricePerMTokIn: null,
      requestTokens: () => 10,
    });
    let calls = 0;
    const job = await runLabelling({
      store,
      work,
      topics: record.topics,
      reused: 0,
      judged: true,
      decider: {
        decide: () => {
          calls += 1;
          if (calls === 3) return Promise.reject(new Error('judge went away'));
          return Promise.resolve({ probabilities: { [record.topics[0]!.id]: 0.9 }, fallback: false } as never);
        },
      },
      now: () => 5,
      signal: new AbortController().signal,
    });
    expect(job).toMatchObject({ state: 'failed', done: 2 });
    const after = await store.read();
    expect(after.record.labels.map((label) => label.turnKey).sort()).toEqual(['canvas:c#one@v', 'canvas:c#two@v']);
    expect(after.events.at(-1)).toMatchObject({ op: 'topics-labelled', meta: { state: 'failed', labelled: 2 } });
  });
});
