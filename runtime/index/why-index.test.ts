import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_BASIC, CLAUDE_HELLO, CLAUDE_MULTI_TURN, copyFixtures, type FixtureWorkspace } from './fixture-roots.ts';
import { purgeIndex, WhyIndex } from './why-index.ts';

const CLAUDE_CWD = '/tmp/realsessions/out/claude/multi-turn/repo';
const workspaces: FixtureWorkspace[] = [];
const indexes: WhyIndex[] = [];

function workspace(): FixtureWorkspace {
  const created = copyFixtures();
  workspaces.push(created);
  return created;
}

function open(space: FixtureWorkspace): WhyIndex {
  const index = WhyIndex.open({ env: space.env });
  indexes.push(index);
  return index;
}

afterEach(() => {
  for (const index of indexes.splice(0)) index.close();
  for (const space of workspaces.splice(0)) {
    chmodTree(space.directory);
    rmSync(space.directory, { recursive: true, force: true });
  }
});

function chmodTree(directory: string): void {
  try {
    chmodSync(directory, 0o755);
  } catch {
    // Already gone.
  }
}

describe('WhyIndex over the real fixtures', () => {
  it('finds the turn that wrote a file, the phrase it used, and recalls it verbatim', async () => {
    const space = workspace();
    const index = open(space);
    const summary = await index.index();
    expect(summary.failed).toEqual([]);
    expect(summary.fullReads).toBeGreaterThan(30);

    const { hits } = index.why(CLAUDE_HELLO, { cwd: '/' });
    expect(hits.length).toBeGreaterThan(0);
    const write = hits.find((hit) => hit.op === 'write' || hit.op === 'edit');
    expect(write).toMatchObject({ runner: 'claude-code', sessionId: 'fb8acab2-b67b-454f-91b5-f87d156f0f09', turn: 1 });
    expect(write!.question).toContain('Create src/hello.ts');
    // The turn wrote the file, changed its greeting and read it back: Why names all three, strongest first.
    expect(write!.ops).toEqual(expect.arrayContaining(['write', 'edit', 'read']));
    expect(write!.ops[0]).toBe(write!.op);

    const found = index.find('exporting a greet', { in: 'question' });
    expect(found.some((hit) => hit.turnKey === write!.turnKey && hit.field === 'question')).toBe(true);
    // A NUL (possible through MCP or HTTP, never a shell) separates words like any other non-word character.
    expect(index.find('exporting\u0000a greet', { in: 'question' })).toEqual(found);
    // --cwd filters to a folder and everything below it; the file system root holds every folder.
    expect(index.find('exporting a greet', { in: 'question', cwd: '/' })).toEqual(found);
    expect(index.find('exporting a greet', { in: 'question', cwd: '/tmp/realsessions/' })).toEqual(found);

    const turn = index.recall({ turnKey: write!.turnKey });
    expect(turn.question).toContain('Create src/hello.ts exporting a greet(name) function');
    expect(turn.steps.length).toBeGreaterThan(0);
    expect(index.recall({ sessionId: 'fb8acab2', turn: 1 }).turnKey).toBe(write!.turnKey);
  });

  it('keeps the index private: directory 0700, database 0600', async () => {
    const space = workspace();
    const index = open(space);
    await index.index();
    expect(statSync(space.weftHome).mode & 0o777).toBe(0o700);
    expect(statSync(index.databasePath).mode & 0o777).toBe(0o600);
  });

  it('tightens an index file left readable by others, so its WAL and SHM files are private too', async () => {
    const space = workspace();
    const first = WhyIndex.open({ env: space.env });
    await first.index();
    first.close();
    const path = join(space.weftHome, 'index.db');
    chmodSync(path, 0o644);
    const index = open(space);
    await index.refresh();
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reads a grown file from where it stopped and a rewritten one again; with preservation off a vanished file takes its rows', async () => {
    const space = workspace();
    mkdirSync(space.weftHome, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(space.weftHome, 'settings.json'),
      JSON.stringify({ sessionArchive: { enabled: false, runners: { 'claude-code': true, codex: true, pi: true } } }),
    );
    const path = join(space.roots[0]!, CLAUDE_MULTI_TURN);
    const lines = readFileSync(path, 'utf8').split('\n');
    const head = `${lines.slice(0, 35).join('\n')}\n`;
    const rest = lines.slice(35).join('\n');
    writeFileSync(path, head);

    const index = open(space);
    await index.index();
    const before = index.sourceRecords();
    expect(index.find('Mark the first item as done', { in: 'question', cwd: CLAUDE_CWD })).toEqual([]);

    appendFileSync(path, rest);
    const summary = await index.refresh();
    expect(summary).toMatchObject({ fullReads: 0, appendReads: 1, removed: 0 });
    const grown = index.sourceRecords().find((record) => record.path === path)!;
    expect(grown).toMatchObject({ appendReads: 1, fullReads: 1, lastReadFrom: Buffer.byteLength(head) });
    for (const record of index.sourceRecords().filter((other) => other.path !== path)) {
      expect(record.fullReads + record.appendReads).toBe(before.find((old) => old.path === record.path)!.fullReads);
    }
    const second = index.find('Mark the first item as done', { in: 'question', cwd: CLAUDE_CWD });
    expect(second).toHaveLength(1);
    expect(second[0]!.turn).toBe(2);
    expect(index.why('TODO.md', { cwd: '/', all: true, includeRead: true }).hits.some((hit) => hit.turn === 2)).toBe(
      true,
    );

    // Rewritten with other content: replaced, the old turns are gone.
    writeFileSync(path, readFileSync(join(space.roots[0]!, CLAUDE_BASIC)));
    expect(await index.refresh()).toMatchObject({ fullReads: 1, appendReads: 0 });
    expect(index.find('Mark the first item as done', { in: 'question', cwd: CLAUDE_CWD })).toEqual([]);

    rmSync(path);
    expect(await index.refresh()).toMatchObject({ removed: 1 });
    expect(index.sourceRecords().some((record) => record.path === path)).toBe(false);
  });

  it('rebuilds when the schema version changes', async () => {
    const space = workspace();
    const first = open(space);
    await first.index();
    first.database.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    first.close();
    const second = open(space);
    expect(second.createdNow).toBe(true);
    expect(second.status().turns).toBe(0);
    await second.index();
    expect(second.why(CLAUDE_HELLO, { cwd: '/' }).hits.length).toBeGreaterThan(0);
  });

  it('indexes memory files into the materials phrase index', async () => {
    const space = workspace();
    const index = open(space);
    await index.index();
    expect(index.status().sources.memoryFiles).toBeGreaterThan(5);
    const hits = index.find('ask which module(s) to work on', { in: 'material' });
    expect(hits).toHaveLength(1);
    expect(hits[0]!.turnKey).toBe(`memory:${join(space.memoryRoot, 'pi/badlogic-pi-mono/AGENTS.md')}`);
    expect(hits[0]!.snippet).toContain('[ask which module');
    const anyMemory = index.find('AGENTS', { in: 'material', limit: 50 });
    expect(anyMemory.length).toBeGreaterThan(0);
    expect(anyMemory.every((hit) => hit.field === 'material' && hit.turnKey.startsWith('memory:'))).toBe(true);
  });

  it('re-reads a changed memory file from its first 4 MiB only, however large it grew', async () => {
    const space = workspace();
    const index = open(space);
    await index.index();
    const file = join(space.memoryRoot, 'pi/badlogic-pi-mono/AGENTS.md');
    writeFileSync(file, 'Remember the zanzibar protocol.\n');
    // Sparse: 3 GiB long, almost no disk; reading it whole would fail (or exhaust memory).
    truncateSync(file, 3 * 1024 ** 3);
    const summary = await index.refresh();
    expect(summary.failed).toEqual([]);
    expect(index.find('zanzibar protocol', { in: 'material' })).toHaveLength(1);
  });

  it("with the default roots, reads the agents' own memory in ~/.claude beside the transcripts", async () => {
    const space = workspace();
    const home = join(space.directory, 'home');
    const project = join(home, '.claude', 'projects', '-tmp-realsessions-out-claude-basic-tools-repo');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'fb8acab2-b67b-454f-91b5-f87d156f0f09.jsonl'),
      readFileSync(join(space.roots[0]!, CLAUDE_BASIC)),
    );
    writeFileSync(join(home, '.claude', 'CLAUDE.md'), '# Me\nAlways answer in haiku when asked about weather.\n');
    const index = WhyIndex.open({ env: { WEFT_HOME: space.weftHome }, home });
    indexes.push(index);
    await index.index();
    expect(index.status().roots).toEqual([
      join(home, '.claude', 'projects'),
      join(home, '.codex', 'sessions'),
      join(home, '.pi', 'agent', 'sessions'),
      // The agent lane's own Codex sessions (the CODEX_HOME Weft owns), so its turns are indexed too.
      join(space.weftHome, 'agents', 'codex-home', 'sessions'),
    ]);
    expect(index.find('answer in haiku', { in: 'material' })[0]?.turnKey).toBe(
      `memory:${join(home, '.claude', 'CLAUDE.md')}`,
    );
    expect(index.why(CLAUDE_HELLO, { cwd: '/' }).hits).toHaveLength(1);
  });

  it('refuses a WEFT_HOME inside a session root, so nothing is ever written under one', () => {
    const space = workspace();
    expect(() => WhyIndex.open({ env: { ...space.env, WEFT_HOME: join(space.roots[0]!, 'weft') } })).toThrow(
      expect.objectContaining({ code: 'weft-home-unsafe' }),
    );
  });

  it('a full rebuild swaps in a new database with the same answers', async () => {
    const space = workspace();
    const index = open(space);
    await index.index();
    const turns = index.status().turns;
    mkdirSync(join(space.weftHome, 'canvases'), { recursive: true });
    const rebuilt = await index.rebuild();
    expect(rebuilt.failed).toEqual([]);
    expect(index.status().turns).toBe(turns);
    expect(index.status().sources.appendReads).toBe(0);
  });

  it('a handle kept open (the app) follows a rebuild or purge done by another one (the CLI) instead of the unlinked file', async () => {
    const space = workspace();
    const app = open(space);
    await app.refresh();
    const sessions = app.status().sessions;
    const cli = WhyIndex.open({ env: space.env });
    await cli.rebuild();
    cli.close();
    // A session appears; the app's next refresh must land where every other reader looks.
    const copy = join(space.roots[0]!, 'claude/extra/projects/-tmp-extra/11111111-2222-4333-8444-555555555555.jsonl');
    mkdirSync(join(copy, '..'), { recursive: true });
    writeFileSync(
      copy,
      readFileSync(join(space.roots[0]!, CLAUDE_MULTI_TURN), 'utf8').replaceAll(
        '4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b',
        '11111111-2222-4333-8444-555555555555',
      ),
    );
    await app.refresh();
    const reader = open(space);
    expect(reader.status().sessions).toBe(sessions + 1);
    expect((await reader.refresh()).fullReads).toBe(0);

    purgeIndex({ env: space.env });
    await app.refresh();
    expect(open(space).status().sessions).toBe(sessions + 1);
  });
});
