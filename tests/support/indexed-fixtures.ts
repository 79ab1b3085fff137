import { rmSync } from 'node:fs';
import { afterEach, expect } from 'vitest';
import { copyFixtures, type FixtureWorkspace } from '../../runtime/index/fixture-roots.ts';
import { WhyIndex } from '../../runtime/index/index.ts';

/**
 * The real session fixtures copied into a fresh workspace and indexed, for the tests of the session archive and its
 * commands; every workspace and index is closed and removed after each test.
 */
export function indexedFixtures(prefix: string): () => Promise<{ space: FixtureWorkspace; index: WhyIndex }> {
  const workspaces: FixtureWorkspace[] = [];
  const indexes: WhyIndex[] = [];
  afterEach(() => {
    for (const index of indexes.splice(0)) index.close();
    for (const space of workspaces.splice(0)) rmSync(space.directory, { recursive: true, force: true });
  });
  return async () => {
    const space = copyFixtures(prefix);
    workspaces.push(space);
    const index = WhyIndex.open({ env: space.env });
    indexes.push(index);
    expect((await index.index()).failed).toEqual([]);
    return { space, index };
  };
}
