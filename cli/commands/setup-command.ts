import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sessionRootsFromEnv } from '../../runtime/atlas/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import {
  addToCodexToml,
  addToMcpJson,
  removeFromCodexToml,
  removeFromMcpJson,
  type McpLaunch,
} from '../mcp-registration.ts';
import type { Terminal } from '../terminal.ts';

/** `weft setup mcp [--remove]`: Claude Code's project `.mcp.json` here, and Codex's `~/.codex/config.toml`. */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  if (command.positionals[0] !== 'mcp') throw new CliError('bad-usage', 'usage: weft setup mcp [--remove]', 2);
  const launch: McpLaunch = {
    command: process.execPath,
    args: [fileURLToPath(new URL('../../bin/weft.mjs', import.meta.url)), 'mcp'],
    env: neededEnvironment(io),
  };
  const codexHome = io.env.CODEX_HOME?.trim()
    ? resolve(io.env.CODEX_HOME)
    : join(io.env.HOME?.trim() || homedir(), '.codex');
  const targets = [
    {
      client: 'claude-code',
      path: join(io.cwd, '.mcp.json'),
      edit: command.flags.remove ? removeFromMcpJson : (text: string | null) => addToMcpJson(text, launch),
    },
    {
      client: 'codex',
      path: join(codexHome, 'config.toml'),
      edit: command.flags.remove ? removeFromCodexToml : (text: string | null) => addToCodexToml(text, launch),
    },
  ];
  // Every edit is planned before any is written: a file refused leaves the other one untouched too.
  const edits = targets.map((target) => {
    try {
      return { target, result: target.edit(readOptional(target.path)) };
    } catch (error) {
      throw new CliError('setup-unreadable', `cannot edit ${target.path}: ${(error as Error).message}`);
    }
  });
  const results = edits.map(({ target, result }) => {
    if (result.changed) writeAtomically(target.path, result.text);
    return { client: target.client, path: target.path, changed: result.changed, present: !command.flags.remove };
  });
  if (command.flags.json) printJson(io.out, results);
  else {
    for (const result of results) {
      const verb = command.flags.remove
        ? result.changed
          ? 'removed from'
          : 'not in'
        : result.changed
          ? 'registered in'
          : 'already in';
      io.out(`${result.client}: weft MCP server ${verb} ${result.path}\n`);
    }
  }
  return 0;
}

/**
 * The environment `weft mcp` must be given to see what `weft` sees in this shell: a WEFT_HOME other than
 * ~/.weft, session roots and memory roots, as absolute paths (the client starts it in another folder; roots
 * resolve against HOME as `weft` itself does).
 */
export function neededEnvironment(io: Pick<Terminal, 'env' | 'cwd'>): Record<string, string> {
  const home = io.env.HOME?.trim() || homedir();
  const env: Record<string, string> = {};
  const weftHome = io.env.WEFT_HOME?.trim();
  if (weftHome && resolve(io.cwd, weftHome) !== join(home, '.weft')) env.WEFT_HOME = resolve(io.cwd, weftHome);
  if (io.env.WEFT_SESSION_ROOTS?.trim()) env.WEFT_SESSION_ROOTS = sessionRootsFromEnv(io.env, home).join(delimiter);
  const memoryRoots = io.env.WEFT_MEMORY_ROOTS?.trim();
  if (memoryRoots)
    env.WEFT_MEMORY_ROOTS = memoryRoots
      .split(delimiter)
      .filter((entry) => entry.trim())
      .map((entry) => resolve(home, entry.trim()))
      .join(delimiter);
  return env;
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes through a temporary file and a rename, keeping the file's mode; `null` deletes the file. A symlink
 * (a config kept in a dotfiles repository) is written through to its target and stays a link.
 */
function writeAtomically(linkOrPath: string, text: string | null): void {
  const linked = isSymlink(linkOrPath);
  const path = linked ? realpathSync(linkOrPath) : linkOrPath;
  if (text === null && !linked) {
    rmSync(path, { force: true });
    return;
  }
  text ??= '';
  mkdirSync(dirname(path), { recursive: true });
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // New file.
  }
  const temporary = `${path}.weft-${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
