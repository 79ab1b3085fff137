import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAUDE_BASIC,
  CLAUDE_HELLO,
  CLAUDE_MULTI_TURN,
  copyFixtures,
  type FixtureWorkspace,
} from '../runtime/index/fixture-roots.ts';
import { runWeft } from './run-weft.ts';

const HIT_KEYS = [
  'at',
  'completeness',
  'cwd',
  'knownAs',
  'op',
  'ops',
  'path',
  'question',
  'runner',
  'sessionId',
  'sourceDeleted',
  'turn',
  'turnKey',
];
const FIND_KEYS = ['at', 'cwd', 'field', 'runner', 'sessionId', 'snippet', 'sourceDeleted', 'turn', 'turnKey'];

function hashTree(directory: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else hashes.set(path, createHash('sha256').update(readFileSync(path)).digest('hex') + statSync(path).mtimeMs);
    }
  };
  walk(directory);
  return hashes;
}

/** Each step spawns the real CLI (a tsx start-up): seconds apiece on a loaded 2-core machine, several per test. */
const SPAWNING = 120_000;
describe('weft CLI over read-only copies of the real fixtures', { timeout: SPAWNING }, () => {
  let space: FixtureWorkspace;
  let before: Map<string, string>;

  beforeAll(async () => {
    space = copyFixtures('weft-cli-');
    execFileSync('chmod', ['-R', 'a-w', join(space.directory, 'roots'), space.memoryRoot]);
    before = hashTree(join(space.directory, 'roots'));
    const built = await runWeft(['index'], { env: space.env });
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(
      /^indexed \d+ of \d+ files .* MB, \d+ turns written, \d+ turns in \d+ sessions, [\d.]+ s\nparsed \d+ records in \d+ session files: .*\n$/,
    );
  });

  afterAll(() => {
    execFileSync('chmod', ['-R', 'u+w', space.directory]);
    rmSync(space.directory, { recursive: true, force: true });
  });

  it('why <absolute path> --json names the turn that wrote the file', async () => {
    const run = await runWeft(['why', CLAUDE_HELLO, '--json'], { env: space.env });
    expect(run.code).toBe(0);
    const hits = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(Object.keys(hit).sort()).toEqual(HIT_KEYS);
    expect(hits[0]).toMatchObject({
      runner: 'claude-code',
      sessionId: 'fb8acab2-b67b-454f-91b5-f87d156f0f09',
      turn: 1,
      path: CLAUDE_HELLO,
    });
    expect(['write', 'edit']).toContain(hits[0]!.op);
    // Every operation the turn did on the file, strongest first.
    expect(hits[0]!.ops).toEqual(expect.arrayContaining(['write', 'edit', 'read']));
    expect(hits[0]!.question).toMatch(/^Create src\/hello.ts exporting a greet/);
  });

  it('why in human form shows the turn and how to recall it', async () => {
    const run = await runWeft(['why', CLAUDE_HELLO], { env: space.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('claude-code fb8acab2 #1');
    expect(run.stdout).toContain('weft recall claude-code:fb8acab2-b67b-454f-91b5-f87d156f0f09#');
    expect(run.stderr).toBe('');
  });

  it('a bare name matches inside the current git root only, unless --all', async () => {
    const project = mkdtempSync(join(tmpdir(), 'weft-git-'));
    mkdirSync(join(project, '.git'));
    try {
      const inside = await runWeft(['why', 'hello.ts', '--json'], { env: space.env, cwd: project });
      expect(JSON.parse(inside.stdout)).toEqual([]);
      const everywhere = await runWeft(['why', 'hello.ts', '--all', '--json'], { env: space.env, cwd: project });
      const paths = (JSON.parse(everywhere.stdout) as { path: string }[]).map((hit) => hit.path);
      expect(paths).toContain(CLAUDE_HELLO);
      expect(paths.every((path) => path.endsWith('/hello.ts'))).toBe(true);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('why --check exits 0 with history and 1 without, in one line', async () => {
    const yes = await runWeft(['why', '--check', CLAUDE_HELLO], { env: space.env });
    expect(yes.code).toBe(0);
    expect(yes.stdout.trim().split('\n')).toHaveLength(1);
    const no = await runWeft(['why', '--check', '/nowhere/never-touched.ts'], { env: space.env });
    expect(no.code).toBe(1);
    expect(no.stdout).toBe('/nowhere/never-touched.ts: no history\n');
  });

  it('find --json returns exact-phrase hits with the documented shape, and --in/--cwd narrow them', async () => {
    const run = await runWeft(['find', 'Mark the first item as done', '--json'], { env: space.env });
    expect(run.code).toBe(0);
    const hits = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(hits.length).toBeGreaterThanOrEqual(2);
    for (const hit of hits) expect(Object.keys(hit).sort()).toEqual(FIND_KEYS);
    expect(
      hits.some((hit) => hit.field === 'question' && String(hit.snippet).includes('[Mark the first item as done]')),
    ).toBe(true);
    const narrowed = JSON.parse(
      (
        await runWeft(
          ['find', 'Mark the first item as done', '--in', 'q', '--cwd', '/tmp/realsessions/out/claude', '--json'],
          { env: space.env },
        )
      ).stdout,
    ) as Record<string, unknown>[];
    expect(narrowed).toHaveLength(1);
    expect(narrowed[0]).toMatchObject({ runner: 'claude-code', field: 'question', turn: 2 });
    const quoted = await runWeft(['find', 'say "hi" AND OR NEAR(', '--json'], { env: space.env });
    expect(quoted.code).toBe(0);
    expect(JSON.parse(quoted.stdout)).toEqual([]);
  });

  it('recall prints the turn verbatim by key and by session and number', async () => {
    const hits = JSON.parse((await runWeft(['why', CLAUDE_HELLO, '--json'], { env: space.env })).stdout) as {
      turnKey: string;
    }[];
    const byKey = await runWeft(['recall', hits[0]!.turnKey], { env: space.env });
    expect(byKey.code).toBe(0);
    expect(byKey.stdout).toContain('## Question\nCreate src/hello.ts exporting a greet(name) function');
    expect(byKey.stdout).toContain('## Tool steps');
    expect(byKey.stdout).toContain(CLAUDE_HELLO);
    const json = JSON.parse(
      (await runWeft(['recall', 'fb8acab2-b67b-454f-91b5-f87d156f0f09', '1', '--json'], { env: space.env })).stdout,
    ) as {
      turnKey: string;
      steps: unknown[];
    };
    expect(json.turnKey).toBe(hits[0]!.turnKey);
    expect(json.steps.length).toBeGreaterThan(0);
    const missing = await runWeft(['recall', 'claude-code:nope#nope'], { env: space.env });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('status reports roots, sources and turns', async () => {
    const status = JSON.parse((await runWeft(['status', '--json'], { env: space.env })).stdout) as {
      roots: string[];
      sources: { sessions: number };
      turns: number;
      databaseBytes: number;
      lastIndexedAt: number;
    };
    expect(status.roots).toEqual(space.roots);
    expect(status.sources.sessions).toBeGreaterThan(30);
    expect(status.turns).toBeGreaterThan(20);
    expect(status.databaseBytes).toBeGreaterThan(0);
    expect(status.lastIndexedAt).toBeGreaterThan(0);
  });

  it('never writes under the session roots', () => {
    expect(hashTree(join(space.directory, 'roots'))).toEqual(before);
  });
});

describe('weft CLI: usage errors', () => {
  it('an unknown command fails with one line', async () => {
    const run = await runWeft(['frobnicate'], { env: { ...process.env, WEFT_HOME: join(tmpdir(), 'weft-unused') } });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('weft: unknown command "frobnicate" (try: weft help)\n');
  });

  it('a bad flag fails with one line and the usage', async () => {
    const run = await runWeft(['find', 'x', '--in', 'z'], { env: process.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('weft: --in must be one of q, a, m\n');
  });
});

describe('weft CLI: a session that grows', { timeout: SPAWNING }, () => {
  it('shows the appended turn after re-reading only the grown file from its offset', async () => {
    const space = copyFixtures('weft-grow-');
    try {
      const path = join(space.roots[0]!, CLAUDE_MULTI_TURN);
      const lines = readFileSync(path, 'utf8').split('\n');
      const head = `${lines.slice(0, 35).join('\n')}\n`;
      writeFileSync(path, head);
      expect((await runWeft(['index'], { env: space.env })).code).toBe(0);
      const query = [
        'find',
        'Mark the first item as done',
        '--cwd',
        '/tmp/realsessions/out/claude/multi-turn/repo',
        '--json',
      ];
      expect(JSON.parse((await runWeft(query, { env: space.env })).stdout)).toEqual([]);
      const statusBefore = JSON.parse((await runWeft(['status', '--json'], { env: space.env })).stdout) as {
        sources: { fullReads: number };
      };

      appendFileSync(path, lines.slice(35).join('\n'));
      const after = await runWeft(query, { env: space.env });
      expect(after.stderr).toBe('weft: index refreshed: 1 file read, 1 from where reading stopped\n');
      expect(JSON.parse(after.stdout)).toMatchObject([{ runner: 'claude-code', turn: 2, field: 'question' }]);
      const statusAfter = JSON.parse((await runWeft(['status', '--json'], { env: space.env })).stdout) as {
        sources: { fullReads: number; appendReads: number };
      };
      expect(statusAfter.sources.fullReads).toBe(statusBefore.sources.fullReads);
      expect(statusAfter.sources.appendReads).toBe(1);
    } finally {
      rmSync(space.directory, { recursive: true, force: true });
    }
  });

  it('purge deletes the index but nothing else under WEFT_HOME', async () => {
    const space = copyFixtures('weft-purge-');
    try {
      await runWeft(['index'], { env: space.env });
      mkdirSync(join(space.weftHome, 'canvases'), { recursive: true });
      writeFileSync(join(space.weftHome, 'canvases', 'keep.weft.json'), '{}');
      const run = await runWeft(['purge'], { env: space.env });
      expect(run.code).toBe(0);
      expect(existsSync(join(space.weftHome, 'index.db'))).toBe(false);
      expect(existsSync(join(space.weftHome, 'canvases', 'keep.weft.json'))).toBe(true);
    } finally {
      rmSync(space.directory, { recursive: true, force: true });
    }
  });
});

describe('weft CLI and the session archive', { timeout: SPAWNING }, () => {
  it('status shows the preservation setting; a deleted session answers marked; purge --archive drops the copies', async () => {
    const space = copyFixtures('weft-cli-archive-');
    try {
      await runWeft(['index'], { env: space.env });
      const status = await runWeft(['status'], { env: space.env });
      expect(status.stdout).toMatch(/archive {3}on for claude-code, codex, pi: \d+ session files kept/);
      rmSync(join(space.roots[0]!, CLAUDE_BASIC));
      const why = await runWeft(['why', CLAUDE_HELLO], { env: space.env });
      expect(why.stdout).toContain('(source deleted)');
      const recall = await runWeft(['recall', 'fb8acab2', '1'], { env: space.env });
      expect(recall.stdout).toContain('source deleted');
      expect(recall.stdout).toContain('Create src/hello.ts');
      expect((await runWeft(['status'], { env: space.env })).stdout).toContain('1 sessions with source deleted');

      const purge = await runWeft(['purge', '--archive'], { env: space.env });
      expect(purge.code).toBe(0);
      expect(existsSync(join(space.weftHome, 'archive'))).toBe(false);
      expect(existsSync(join(space.weftHome, 'index.db'))).toBe(false);
      const after = await runWeft(['why', CLAUDE_HELLO], { env: space.env });
      expect(after.stdout).not.toContain('fb8acab2');
    } finally {
      rmSync(space.directory, { recursive: true, force: true });
    }
  });
});

describe('weft CLI on hostile session text', { timeout: SPAWNING }, () => {
  it("never sends a session's terminal control sequences to the terminal, while --json keeps the text exact", async () => {
    const space = copyFixtures('weft-escape-');
    try {
      // A question carrying an OSC 52 clipboard write, a bell and a C1 CSI, as a fetched page could.
      const hostile = '\u001b]52;c;ZXZpbA==\u0007\u009b31mCreate src/hello.ts';
      const file = join(space.roots[0]!, CLAUDE_BASIC);
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replaceAll('Create src/hello.ts', JSON.stringify(hostile).slice(1, -1)),
      );
      const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
      for (const args of [
        ['why', CLAUDE_HELLO],
        ['find', 'exporting a greet'],
        ['recall', 'fb8acab2', '1'],
      ]) {
        const run = await runWeft(args, { env: space.env });
        expect(run.code).toBe(0);
        expect(run.stdout).toContain('Create src/hello.ts');
        expect(run.stdout).not.toMatch(controls);
      }
      const json = await runWeft(['recall', 'fb8acab2', '1', '--json'], { env: space.env });
      expect((JSON.parse(json.stdout) as { question: string }).question.startsWith(hostile)).toBe(true);
    } finally {
      rmSync(space.directory, { recursive: true, force: true });
    }
  });

  it('names an unreadable file on stderr without its control characters', async () => {
    const space = copyFixtures('weft-escape-name-');
    try {
      mkdirSync(join(space.weftHome, 'canvases'), { recursive: true });
      writeFileSync(join(space.weftHome, 'canvases', 'x\u001b]0;pwned\u0007.weft.json'), '{}');
      const run = await runWeft(['index'], { env: space.env });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/could not read .*pwned/);
      expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    } finally {
      rmSync(space.directory, { recursive: true, force: true });
    }
  });
});
