import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelJob, LabelPlan, TopicLabels, TopicRecord } from '../protocol/index.ts';
import { StoredExchanges } from '../tests/support/stored-exchange.ts';
import { CanvasStore } from '../runtime/fs/canvas-store.ts';
import { runWeft } from './run-weft.ts';

let home: string;
let roots: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'weft-cli-topics-'));
  roots = mkdtempSync(join(tmpdir(), 'weft-cli-topics-roots-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(roots, { recursive: true, force: true });
});

const weft = (...args: string[]) =>
  runWeft(args, { env: { ...process.env, WEFT_HOME: home, WEFT_SESSION_ROOTS: roots } });
const record = () => JSON.parse(readFileSync(join(home, 'memory', 'topics.json'), 'utf8')) as TopicRecord;

/** Canvas records written straight into WEFT_HOME, as the app stores them. */
function canvasWriter() {
  mkdirSync(join(home, 'canvases'), { recursive: true });
  const store = new CanvasStore({ directory: join(home, 'canvases') });
  return new StoredExchanges({
    async api(path, init) {
      const id = decodeURIComponent(path.split('/').pop()!);
      await store.write(id, JSON.parse(init?.body as string), { baseRevision: null });
      return new Response('{}');
    },
  });
}

// Each command is a spawned Node with tsx: slow on a shared machine.
describe('weft topics (the built CLI, spawned)', { timeout: 180_000 }, () => {
  it('creates, renames, merges and deletes topics by name or id', async () => {
    expect((await weft('topics', 'create', 'Dexie')).code).toBe(0);
    expect((await weft('topics', 'create', 'Storage')).code).toBe(0);
    const duplicate = await weft('topics', 'create', 'dexie');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('duplicate-name');
    expect((await weft('topics', 'rename', 'storage', 'IndexedDB')).code).toBe(0);
    const [dexie, indexed] = record().topics;
    expect(indexed!.name).toBe('IndexedDB');
    expect((await weft('topics', 'merge', 'IndexedDB', dexie!.id)).code).toBe(0);
    expect(record().topics).toEqual([dexie]);
    const listed = await weft('topics', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([{ ...dexie, turns: 0 }]);
    expect((await weft('topics', 'delete', 'Dexie')).code).toBe(0);
    expect(record().topics).toEqual([]);
    expect((await weft('topics', 'delete', 'Dexie')).code).toBe(1);
  });

  it('label shows the plan and writes nothing; --yes labels by name without a judge; a second run reuses; labels and unlabel', async () => {
    await canvasWriter().store('canvas-1', { question: 'How is the Dexie schema migrated?', answer: 'By versions.' });
    await weft('topics', 'create', 'Dexie');
    const shown = await weft('topics', 'label');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('1 turns: 0 labelled already (unchanged), 1 to label');
    expect(shown.stdout).toContain('no decision model is set');
    expect(record().labels).toEqual([]);

    const ran = await weft('topics', 'label', '--yes', '--json');
    expect(ran.code).toBe(0);
    const { plan, job } = JSON.parse(ran.stdout) as { plan: LabelPlan; job: LabelJob };
    expect(plan).toMatchObject({ turns: 1, toLabel: 1, requests: 0, outgoing: [] });
    expect(job).toMatchObject({ state: 'done', done: 1, byName: 1 });
    expect(record().labels).toMatchObject([{ topicIds: [record().topics[0]!.id], by: 'name' }]);

    const again = JSON.parse((await weft('topics', 'label', '--json')).stdout) as { plan: LabelPlan };
    expect(again.plan).toMatchObject({ reused: 1, toLabel: 0 });

    const listed = await weft('topics', 'labels', 'dexie', '--json');
    expect(listed.code).toBe(0);
    const { turns } = JSON.parse(listed.stdout) as TopicLabels;
    expect(turns).toMatchObject([
      {
        source: 'canvas',
        runner: 'canvas',
        title: 'canvas-1',
        opening: 'How is the Dexie schema migrated?',
        by: 'name',
      },
    ]);
    const key = turns[0]!.turnKey;
    expect((await weft('topics', 'labels', 'Dexie')).stdout).toContain(`${key}  canvas  canvas-1`);
    expect((await weft('topics', 'unlabel', 'Dexie', key)).code).toBe(0);
    expect(record().labels[0]!.topicIds).toEqual([]);
    expect(record().removed).toMatchObject([{ turnKey: key, topicId: record().topics[0]!.id }]);
    const twice = await weft('topics', 'unlabel', 'Dexie', key);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('not-labelled');
    expect(JSON.parse((await weft('topics', 'labels', 'Dexie', '--json')).stdout)).toMatchObject({ turns: [] });
  });
});
