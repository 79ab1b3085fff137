import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addToCodexToml, addToMcpJson, removeFromCodexToml, removeFromMcpJson } from './mcp-registration.ts';
import { runWeft } from './run-weft.ts';

const launch = { command: '/usr/bin/node', args: ['/opt/weft/bin/weft.mjs', 'mcp'] };

interface McpJson {
  mcpServers: Record<string, { env?: Record<string, string>; timeout?: number }>;
}
const weftEntry = (text: string) => (JSON.parse(text) as McpJson).mcpServers.weft!;

describe('.mcp.json edits', () => {
  const originals = [
    '{\n  "mcpServers": {\n    "other": { "command": "x", "args": ["--a"] }\n  },\n  "extra":   [1,2 ,3]\n}\n',
    '{"mcpServers":{"a":{"command":"a"},"b":{"command":"b"}}}',
    '{\n\t"theme": "dark"\n}',
    '{\n    "mcpServers": {}\n}\n',
  ];

  it.each(originals)(
    'adds weft, keeps other entries byte for byte, and --remove restores the original (%#)',
    (original) => {
      const added = addToMcpJson(original, launch);
      expect(added.changed).toBe(true);
      const parsed = JSON.parse(added.text!);
      expect(parsed.mcpServers.weft).toEqual({ type: 'stdio', ...launch });
      const before = JSON.parse(original);
      for (const key of Object.keys(before)) if (key !== 'mcpServers') expect(parsed[key]).toEqual(before[key]);
      for (const name of Object.keys(before.mcpServers ?? {})) expect(added.text).toContain(JSON.stringify(name));
      expect(addToMcpJson(added.text, launch)).toEqual({ changed: false, text: added.text });
      const removed = removeFromMcpJson(added.text);
      if (original === originals[3]) expect(removed.text).toBeNull();
      else expect(removed.text).toBe(original);
    },
  );

  it("keeps the other servers' bytes exactly", () => {
    const original = originals[0]!;
    const added = addToMcpJson(original, launch).text!;
    expect(added.startsWith('{\n  "mcpServers": {\n    "other": { "command": "x", "args": ["--a"] }')).toBe(true);
    expect(added.endsWith('  },\n  "extra":   [1,2 ,3]\n}\n')).toBe(true);
  });

  it('replaces a stale weft entry in place and creates the file when missing', () => {
    const created = addToMcpJson(null, launch);
    expect(JSON.parse(created.text!)).toEqual({ mcpServers: { weft: { type: 'stdio', ...launch } } });
    expect(removeFromMcpJson(created.text).text).toBeNull();
    const stale = '{"mcpServers":{"weft":{"command":"old"},"z":{}}}';
    const updated = addToMcpJson(stale, launch);
    expect(JSON.parse(updated.text!).mcpServers).toEqual({ weft: { type: 'stdio', ...launch }, z: {} });
    expect(updated.text!.endsWith(',"z":{}}}')).toBe(true);
  });

  it('writes the env weft needs and keeps the env entries and keys the person added', () => {
    const withEnv = { ...launch, env: { WEFT_HOME: '/data/weft' } };
    expect(weftEntry(addToMcpJson(null, withEnv).text!)).toEqual({
      type: 'stdio',
      ...launch,
      env: { WEFT_HOME: '/data/weft' },
    });
    const personal =
      '{"mcpServers":{"weft":{"command":"old","args":[],"env":{"WEFT_HOME":"/old","DEBUG":"1"},"timeout":9000}}}';
    const updated = addToMcpJson(personal, withEnv);
    expect(weftEntry(updated.text!)).toEqual({
      command: '/usr/bin/node',
      args: ['/opt/weft/bin/weft.mjs', 'mcp'],
      env: { WEFT_HOME: '/data/weft', DEBUG: '1' },
      timeout: 9000,
      type: 'stdio',
    });
    expect(addToMcpJson(updated.text, withEnv).changed).toBe(false);
    // Run again from a shell without the variables: nothing of theirs (or of the earlier run) is dropped.
    expect(addToMcpJson(updated.text, launch)).toEqual({ changed: false, text: updated.text });
  });

  it('refuses a file that is not JSON and changes nothing', () => {
    expect(() => addToMcpJson('{ not json', launch)).toThrow();
  });
});

describe('config.toml edits', () => {
  const original =
    'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-server"\n\n[profiles.fast]\nmodel = "mini" # keep\n';

  it('adds only the [mcp_servers.weft] table, idempotently, and --remove restores the bytes', () => {
    const added = addToCodexToml(original, launch);
    expect(added.text).toBe(
      `${original}\n[mcp_servers.weft]\ncommand = "/usr/bin/node"\nargs = ["/opt/weft/bin/weft.mjs", "mcp"]\n`,
    );
    expect(addToCodexToml(added.text, launch).changed).toBe(false);
    expect(removeFromCodexToml(added.text)).toEqual({ changed: true, text: original });
    expect(removeFromCodexToml(original)).toEqual({ changed: false, text: original });
  });

  it('updates a weft table in the middle, keeps its subtables and leaves its neighbours alone', () => {
    const middle = '[mcp_servers.weft]\ncommand = "old"\n[mcp_servers.weft.env]\nA = "1"\n\n[other]\nx = 1\n';
    const replaced = addToCodexToml(middle, launch).text!;
    expect(replaced).toBe(
      '[mcp_servers.weft]\ncommand = "/usr/bin/node"\nargs = ["/opt/weft/bin/weft.mjs", "mcp"]\n[mcp_servers.weft.env]\nA = "1"\n\n[other]\nx = 1\n',
    );
    expect(removeFromCodexToml(replaced).text).toBe('[other]\nx = 1\n');
    expect(removeFromCodexToml(addToCodexToml(null, launch).text).text).toBeNull();
  });

  it('writes an env subtable weft needs, and keeps what the person added to the table', () => {
    const withEnv = { ...launch, env: { WEFT_HOME: '/data/weft', WEFT_SESSION_ROOTS: '/r1:/r2' } };
    const created = addToCodexToml('model = "o3"\n', withEnv).text!;
    expect(created).toBe(
      'model = "o3"\n\n[mcp_servers.weft]\ncommand = "/usr/bin/node"\nargs = ["/opt/weft/bin/weft.mjs", "mcp"]\n\n[mcp_servers.weft.env]\nWEFT_HOME = "/data/weft"\nWEFT_SESSION_ROOTS = "/r1:/r2"\n',
    );
    expect(addToCodexToml(created, withEnv).changed).toBe(false);
    expect(addToCodexToml(created, launch).changed).toBe(false);
    expect(removeFromCodexToml(created).text).toBe('model = "o3"\n');

    const personal = [
      '[mcp_servers.weft]',
      'command = "old"',
      'args = [',
      '  "/old/weft.mjs", # the old place',
      '  "mcp",',
      ']',
      'startup_timeout_sec = 30',
      '',
      '[mcp_servers.weft.env]',
      'WEFT_HOME = "/old"',
      '"MY VAR" = "kept"',
      '',
      '[profiles.fast]',
      'model = "mini"',
      '',
    ].join('\n');
    expect(addToCodexToml(personal, withEnv).text).toBe(
      [
        '[mcp_servers.weft]',
        'command = "/usr/bin/node"',
        'args = ["/opt/weft/bin/weft.mjs", "mcp"]',
        'startup_timeout_sec = 30',
        '',
        '[mcp_servers.weft.env]',
        'WEFT_HOME = "/data/weft"',
        '"MY VAR" = "kept"',
        'WEFT_SESSION_ROOTS = "/r1:/r2"',
        '',
        '[profiles.fast]',
        'model = "mini"',
        '',
      ].join('\n'),
    );

    const inline = '[mcp_servers.weft]\ncommand = "old"\nenv = { DEBUG = "1", WEFT_HOME = "/old" }\n';
    expect(addToCodexToml(inline, withEnv).text).toBe(
      '[mcp_servers.weft]\ncommand = "/usr/bin/node"\nargs = ["/opt/weft/bin/weft.mjs", "mcp"]\nenv = { DEBUG = "1", WEFT_HOME = "/data/weft", WEFT_SESSION_ROOTS = "/r1:/r2" }\n',
    );
  });

  it.each([
    '[mcp_servers]\nweft = { command = "old" }\n',
    'model = "o3"\nmcp_servers.weft.command = "old"\n',
    '[mcp_servers]\n"weft".command = "old"\n',
  ])('refuses a weft server written inline or as dotted keys rather than adding a second one (%#)', (original) => {
    // A second definition would be a duplicate key: Codex would refuse its whole config.
    expect(() => addToCodexToml(original, launch)).toThrow(/mcp_servers\.weft/);
  });

  it('still adds its table beside other inline servers and keys named like weft elsewhere', () => {
    const original = '[mcp_servers]\ndocs = { command = "docs" }\n\n[profiles.weft]\nweft = 1\n';
    expect(addToCodexToml(original, launch).text).toContain('[mcp_servers.weft]');
  });
});

// Each test spawns the real CLI several times (a tsx start-up apiece): seconds each on a loaded 2-core machine.
describe('weft setup mcp (black box)', { timeout: 120_000 }, () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  it('registers for Claude Code and Codex, is idempotent, and --remove restores both files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'weft-setup-'));
    directories.push(root);
    const home = join(root, 'home');
    const project = join(root, 'project');
    mkdirSync(join(home, '.codex'), { recursive: true });
    mkdirSync(project);
    const toml = 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs"\n';
    const json = '{\n  "mcpServers": {\n    "docs": {"command": "docs"}\n  }\n}\n';
    writeFileSync(join(home, '.codex', 'config.toml'), toml);
    writeFileSync(join(project, '.mcp.json'), json);
    const env = { ...process.env, HOME: home, CODEX_HOME: '', WEFT_HOME: join(root, 'weft') };

    const first = await runWeft(['setup', 'mcp'], { env, cwd: project });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('claude-code: weft MCP server registered in');
    const afterFirst = [
      readFileSync(join(project, '.mcp.json'), 'utf8'),
      readFileSync(join(home, '.codex', 'config.toml'), 'utf8'),
    ];
    expect(JSON.parse(afterFirst[0]!).mcpServers.weft.args.at(-1)).toBe('mcp');
    expect(afterFirst[1]).toContain('[mcp_servers.weft]');

    const second = await runWeft(['setup', 'mcp'], { env, cwd: project });
    expect(second.stdout).toContain('already in');
    expect(readFileSync(join(project, '.mcp.json'), 'utf8')).toBe(afterFirst[0]);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toBe(afterFirst[1]);

    expect((await runWeft(['setup', 'mcp', '--remove'], { env, cwd: project })).code).toBe(0);
    expect(readFileSync(join(project, '.mcp.json'), 'utf8')).toBe(json);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toBe(toml);
    expect(existsSync(join(root, 'weft', 'index.db'))).toBe(false);
  });

  it('writes the env a non-default WEFT_HOME and roots need, and a re-run keeps what the person added', async () => {
    const root = mkdtempSync(join(tmpdir(), 'weft-setup-env-'));
    directories.push(root);
    const home = join(root, 'home');
    const project = join(root, 'project');
    mkdirSync(join(home, '.codex'), { recursive: true });
    mkdirSync(project);
    const weftHome = join(root, 'weft-data');
    const roots = [join(root, 'claude'), join(root, 'codex')].join(':');
    const env = { ...process.env, HOME: home, CODEX_HOME: '', WEFT_HOME: weftHome, WEFT_SESSION_ROOTS: roots };
    expect((await runWeft(['setup', 'mcp'], { env, cwd: project })).code).toBe(0);
    const mcpJson = () => weftEntry(readFileSync(join(project, '.mcp.json'), 'utf8'));
    const toml = () => readFileSync(join(home, '.codex', 'config.toml'), 'utf8');
    expect(mcpJson().env).toEqual({ WEFT_HOME: weftHome, WEFT_SESSION_ROOTS: roots });
    expect(toml()).toContain(
      `[mcp_servers.weft.env]\nWEFT_HOME = ${JSON.stringify(weftHome)}\nWEFT_SESSION_ROOTS = ${JSON.stringify(roots)}\n`,
    );

    // The person adds their own entries; re-running (even from a shell without the variables) keeps them.
    const json = JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')) as McpJson;
    json.mcpServers.weft!.env!.DEBUG = 'weft:*';
    json.mcpServers.weft!.timeout = 5000;
    writeFileSync(join(project, '.mcp.json'), JSON.stringify(json, null, 2) + '\n');
    writeFileSync(
      join(home, '.codex', 'config.toml'),
      toml()
        .replace('[mcp_servers.weft.env]\n', '[mcp_servers.weft.env]\nDEBUG = "weft:*"\n')
        .replace('"mcp"]\n', '"mcp"]\ntool_timeout_sec = 90\n'),
    );
    const plain: Record<string, string | undefined> = { ...process.env, HOME: home, CODEX_HOME: '' };
    delete plain.WEFT_HOME;
    delete plain.WEFT_SESSION_ROOTS;
    const rerun = await runWeft(['setup', 'mcp'], { env: plain, cwd: project });
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('claude-code: weft MCP server already in');
    expect(mcpJson()).toMatchObject({
      env: { WEFT_HOME: weftHome, WEFT_SESSION_ROOTS: roots, DEBUG: 'weft:*' },
      timeout: 5000,
    });
    expect(toml()).toContain('DEBUG = "weft:*"');
    expect(toml()).toContain(`WEFT_HOME = ${JSON.stringify(weftHome)}`);
    expect(toml()).toContain('tool_timeout_sec = 90');

    // A new home replaces only weft's own entry.
    const moved = join(root, 'weft-moved');
    expect((await runWeft(['setup', 'mcp'], { env: { ...env, WEFT_HOME: moved }, cwd: project })).code).toBe(0);
    expect(mcpJson().env).toEqual({ WEFT_HOME: moved, WEFT_SESSION_ROOTS: roots, DEBUG: 'weft:*' });
    expect(toml()).toContain(`WEFT_HOME = ${JSON.stringify(moved)}`);
    expect(toml()).toContain('DEBUG = "weft:*"');
    expect(toml()).toContain('tool_timeout_sec = 90');
  });

  it('edits a config.toml kept as a symlink (a dotfiles repository) through the link, which stays a link', async () => {
    const root = mkdtempSync(join(tmpdir(), 'weft-setup-link-'));
    directories.push(root);
    const home = join(root, 'home');
    const project = join(root, 'project');
    const dotfiles = join(root, 'dotfiles');
    mkdirSync(join(home, '.codex'), { recursive: true });
    mkdirSync(project);
    mkdirSync(dotfiles);
    const toml = 'model = "o3"\n';
    writeFileSync(join(dotfiles, 'codex.toml'), toml);
    symlinkSync(join(dotfiles, 'codex.toml'), join(home, '.codex', 'config.toml'));
    const env = { ...process.env, HOME: home, CODEX_HOME: '', WEFT_HOME: join(root, 'weft') };

    expect((await runWeft(['setup', 'mcp'], { env, cwd: project })).code).toBe(0);
    expect(lstatSync(join(home, '.codex', 'config.toml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, 'codex.toml'), 'utf8')).toContain('[mcp_servers.weft]');
    expect((await runWeft(['setup', 'mcp', '--remove'], { env, cwd: project })).code).toBe(0);
    expect(lstatSync(join(home, '.codex', 'config.toml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, 'codex.toml'), 'utf8')).toBe(toml);
    expect(readdirSync(dotfiles)).toEqual(['codex.toml']);
  });

  it('writes neither file when one of them is refused', async () => {
    const root = mkdtempSync(join(tmpdir(), 'weft-setup-refused-'));
    directories.push(root);
    const home = join(root, 'home');
    const project = join(root, 'project');
    mkdirSync(join(home, '.codex'), { recursive: true });
    mkdirSync(project);
    const toml = '[mcp_servers]\nweft = { command = "old" }\n';
    writeFileSync(join(home, '.codex', 'config.toml'), toml);
    const env = { ...process.env, HOME: home, CODEX_HOME: '', WEFT_HOME: join(root, 'weft') };
    const run = await runWeft(['setup', 'mcp'], { env, cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^weft: cannot edit .*config\.toml: .*mcp_servers\.weft/);
    expect(existsSync(join(project, '.mcp.json'))).toBe(false);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toBe(toml);
  });
});
