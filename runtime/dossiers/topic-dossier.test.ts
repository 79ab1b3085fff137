import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTopic } from '../../src/core/topics/index.ts';
import { memoryDirectory } from '../memory/index.ts';
import { TopicStore } from '../topics/index.ts';
import { dossierDatabasePath } from './dossier-database.ts';
import { listTopicSummaries, readTopicDossier } from './topic-dossier.ts';

let home = '';
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('reading dossiers for the CLI and MCP (C15)', () => {
  it('a listing or a read never creates the dossier store: no file means no dossier yet', async () => {
    home = mkdtempSync(join(tmpdir(), 'weft-dossier-read-'));
    const topics = new TopicStore({ directory: memoryDirectory(home), now: Date.now, newId: randomUUID });
    await topics.update(null, ({ record }) => {
      const created = createTopic(record, 'Storage', { now: 1, newId: randomUUID });
      if (!created.ok) throw new Error(created.error);
      return { record: created.value.record, events: [created.value.event], result: null };
    });
    expect(await listTopicSummaries(home)).toEqual([
      expect.objectContaining({ name: 'Storage', dossierVersion: null }),
    ]);
    expect(await readTopicDossier(home, 'storage', null)).toMatchObject({ dossier: null, retired: [] });
    expect(existsSync(dossierDatabasePath(home))).toBe(false);
  });
});
