import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDirectory } from '../index/fixture-roots.ts';
import { WhyIndex } from '../index/why-index.ts';
import { citedKnownAs } from './dossier-turns.ts';

// #29: the dossier panel names a sentence's reconstructed citations. Over a real why index of the constructed Claude
// Code sessions: a turn the runner marked interrupted is reconstructed, a whole one is not named.
const ORIGINAL = '5f0c2a9e-3b1d-4c6e-9a7f-1d2e3f405161';
const CONTINUED = '8a4b6c2d-7e9f-4a1b-8c3d-5e6f70819203';
const directory = mkdtempSync(join(tmpdir(), 'weft-cited-known-as-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('how a dossier’s cited turns are known', () => {
  it('names an interrupted session turn reconstructed and leaves whole turns and canvas turns unnamed', async () => {
    const root = join(directory, 'projects');
    cpSync(join(fixturesDirectory(), 'sessions/claude-code/constructed/projects'), root, { recursive: true });
    mkdirSync(join(directory, 'memory'));
    const index = WhyIndex.open({
      env: {
        HOME: join(directory, 'home'),
        WEFT_HOME: join(directory, 'weft-home'),
        WEFT_SESSION_ROOTS: root,
        WEFT_MEMORY_ROOTS: join(directory, 'memory'),
      },
      home: join(directory, 'home'),
    });
    try {
      await index.index();
      const interrupted = index.recall({ sessionId: CONTINUED, turn: 2 });
      expect(interrupted.status).toBe('interrupted');
      const cut = interrupted.turnKey;
      const whole = index.recall({ sessionId: ORIGINAL, turn: 1 }).turnKey;
      const canvas = 'canvas:c#n@v';
      const known = await citedKnownAs([cut, whole, canvas], {
        database: index.database,
        canvases: { read: () => Promise.reject(new Error('no canvas')) },
      });
      expect(known).toEqual({ [cut]: 'reconstructed' });
    } finally {
      index.close();
    }
  });
});
