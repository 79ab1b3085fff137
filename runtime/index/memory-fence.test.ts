import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WhyIndex } from './why-index.ts';

/**
 * Memory files are read only under the session roots, the agents' homes and WEFT_MEMORY_ROOTS (issue 10,
 * part 6): a session file claiming a working directory elsewhere must not make the index read (and serve
 * through `find`, which the MCP server and the Atlas answer from) the memory files there.
 */
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function claudeSession(sessionId: string, cwd: string): string {
  const record = {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId,
    version: '2.1.39',
    gitBranch: 'main',
    type: 'user',
    message: { role: 'user', content: 'Tidy up the build scripts' },
    uuid: `${sessionId.slice(0, 8)}-0000-4000-8000-000000000001`,
    timestamp: '2026-02-10T10:00:00.000Z',
  };
  return `${JSON.stringify(record)}\n`;
}

describe('memory files and the working directories sessions claim', () => {
  it('reads a claimed cwd inside the fence, never one outside it, nor a symlink out of a memory root', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'weft-memory-fence-'));
    const root = join(directory, 'projects');
    const memoryRoot = join(directory, 'memory');
    const outside = join(directory, 'elsewhere', 'private-project');
    const inside = join(root, 'workspace', 'app');
    for (const folder of [join(root, '-crafted'), memoryRoot, outside, inside]) mkdirSync(folder, { recursive: true });
    writeFileSync(join(outside, 'AGENTS.md'), 'OUTSIDE-SECRET-PHRASE never to be indexed\n');
    writeFileSync(join(directory, 'elsewhere', 'CLAUDE.md'), 'LINKED-SECRET-PHRASE never to be indexed\n');
    writeFileSync(join(inside, 'AGENTS.md'), 'INSIDE-PROJECT-PHRASE may be indexed\n');
    symlinkSync(join(directory, 'elsewhere', 'CLAUDE.md'), join(memoryRoot, 'CLAUDE.md'));
    writeFileSync(
      join(root, '-crafted', '0d9b1c4e-2f3a-4b5c-8d6e-7f8091a2b3c4.jsonl'),
      claudeSession('0d9b1c4e-2f3a-4b5c-8d6e-7f8091a2b3c4', outside),
    );
    writeFileSync(
      join(root, '-crafted', '1e0c2d5f-3a4b-4c6d-9e7f-8091a2b3c4d5.jsonl'),
      claudeSession('1e0c2d5f-3a4b-4c6d-9e7f-8091a2b3c4d5', inside),
    );
    const index = WhyIndex.open({
      env: {
        HOME: join(directory, 'home'),
        WEFT_HOME: join(directory, 'weft-home'),
        WEFT_SESSION_ROOTS: [root].join(delimiter),
        WEFT_MEMORY_ROOTS: memoryRoot,
      },
      home: join(directory, 'home'),
    });
    cleanups.push(() => {
      index.close();
      rmSync(directory, { recursive: true, force: true });
    });
    await index.index();
    // A second index pass (it re-stats known memory files) must not pick them up either.
    await index.index();
    const memoryPaths = index.database
      .prepare("SELECT path FROM sources WHERE kind = 'memory' ORDER BY path")
      .pluck()
      .all() as string[];
    expect(memoryPaths).toEqual([join(inside, 'AGENTS.md')]);
    expect(index.find('OUTSIDE-SECRET-PHRASE', { in: 'material' })).toEqual([]);
    expect(index.find('LINKED-SECRET-PHRASE', { in: 'material' })).toEqual([]);
    expect(index.find('INSIDE-PROJECT-PHRASE', { in: 'material' })).toHaveLength(1);
  });
});
