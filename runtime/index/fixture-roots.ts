import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test support: copies of the real session fixtures (`tests/fixtures/`, beside the repository) in a
 * temporary folder, and the environment that points the index at them. Never used by product code.
 */
export function fixturesDirectory(): string {
  const configured = process.env.WEFT_FIXTURES;
  if (configured) return resolve(configured);
  return resolve(fileURLToPath(new URL('../../tests/fixtures', import.meta.url)));
}

export interface FixtureWorkspace {
  directory: string;
  weftHome: string;
  roots: string[];
  memoryRoot: string;
  env: NodeJS.ProcessEnv;
}

/** A fresh workspace: `roots/real-sessions`, `roots/sessions`, `memory`, and an empty `weft-home`. */
export function copyFixtures(prefix = 'weft-index-'): FixtureWorkspace {
  const source = fixturesDirectory();
  if (!existsSync(join(source, 'real-sessions')))
    throw new Error(`fixtures not found at ${source} (set WEFT_FIXTURES)`);
  const directory = mkdtempSync(join(tmpdir(), prefix));
  const roots = [join(directory, 'roots', 'real-sessions'), join(directory, 'roots', 'sessions')];
  cpSync(join(source, 'real-sessions'), roots[0]!, { recursive: true });
  cpSync(join(source, 'sessions'), roots[1]!, { recursive: true });
  const memoryRoot = join(directory, 'memory');
  cpSync(join(source, 'memory'), memoryRoot, { recursive: true });
  const weftHome = join(directory, 'weft-home');
  return {
    directory,
    weftHome,
    roots,
    memoryRoot,
    env: {
      ...process.env,
      HOME: join(directory, 'home'),
      WEFT_HOME: weftHome,
      WEFT_SESSION_ROOTS: roots.join(delimiter),
      WEFT_MEMORY_ROOTS: memoryRoot,
    },
  };
}

/** Relative paths of the real fixtures the tests rely on. */
export const CLAUDE_BASIC =
  'claude/basic-tools/projects/-tmp-realsessions-out-claude-basic-tools-repo/fb8acab2-b67b-454f-91b5-f87d156f0f09.jsonl';
export const CLAUDE_MULTI_TURN =
  'claude/multi-turn/projects/-tmp-realsessions-out-claude-multi-turn-repo/4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b.jsonl';
/** The file the basic-tools scenario wrote (the Claude Code run). */
export const CLAUDE_HELLO = '/tmp/realsessions/out/claude/basic-tools/repo/src/hello.ts';
