import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createAtlasCatalog } from './atlas-catalog.ts';
import { copyFixtures, type FixtureWorkspace } from './fixture-roots.ts';
import { WhyIndex } from './why-index.ts';

const spaces: FixtureWorkspace[] = [];
afterEach(() => {
  for (const space of spaces.splice(0)) rmSync(space.directory, { recursive: true, force: true });
});

describe('parallel session readers', () => {
  it('index the same turns, touches and text as reading in-process', async () => {
    const results = [];
    for (const workers of [0, 2]) {
      const space = copyFixtures('weft-pool-');
      spaces.push(space);
      const catalog = createAtlasCatalog({ env: space.env, home: homedir(), workers, bulkBytes: 0 });
      const index = WhyIndex.open({ env: space.env, catalog });
      try {
        const summary = await index.index();
        expect(summary.failed).toEqual([]);
        const status = index.status();
        const keys = index.database.prepare('SELECT turn_key FROM turns ORDER BY turn_key').pluck().all();
        results.push({ turns: status.turns, touches: status.touches, sessions: status.sessions, keys });
      } finally {
        index.close();
      }
    }
    expect(results[0]!.turns).toBeGreaterThan(20);
    expect(results[1]).toEqual(results[0]);
  });
});
