import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/core/index.ts';
import { createTopic } from '../../src/core/topics/index.ts';
import { nodeHashPort } from '../hash/index.ts';
import { TopicStore } from './topic-store.ts';

const CHILD = fileURLToPath(new URL('./testing/label-child.ts', import.meta.url));

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-topics-store-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function spawnWriter(tag: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', CHILD, directory, String(count), tag], (error, _out, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
    );
  });
}

const store = (busyMs?: number) =>
  new TopicStore({ directory, now: Date.now, newId: randomUUID, hash: nodeHashPort, ...(busyMs ? { busyMs } : {}) });

describe('the topic table across processes (C15)', () => {
  it(
    'five processes writing at once: every write lands, with an unbroken event chain',
    { timeout: 120_000 },
    async () => {
      const tags = ['a', 'b', 'c', 'd', 'e'];
      const writers = Promise.all(tags.map((tag) => spawnWriter(tag, 20)));
      while (!tags.every((tag) => existsSync(join(directory, `ready-${tag}`))))
        await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(join(directory, 'go'), '');
      await writers;
      const { record, events } = await store().read();
      expect(record.labels).toHaveLength(100);
      expect(new Set(record.labels.map((label) => label.turnKey)).size).toBe(100);
      expect(events).toHaveLength(100);
      expect(verifyChain(events)).toBeNull();
    },
  );

  it('a write waiting on another process’s lock past its bound is refused topics-busy, nothing written', async () => {
    const holder = new Database(join(directory, 'topics.lock'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const refused = store(150).update(null, ({ record }) => {
        const created = createTopic(record, 'Dexie', { now: 1, newId: () => 'dexie' });
        if (!created.ok) throw new Error(created.error);
        return { record: created.value.record, events: [created.value.event], result: null };
      });
      await expect(refused).rejects.toMatchObject({ code: 'topics-busy', status: 503 });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(existsSync(join(directory, 'topics.json'))).toBe(false);
    const { record } = await store().read();
    expect(record.topics).toEqual([]);
  });
});
