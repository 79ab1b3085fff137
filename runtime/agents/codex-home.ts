import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify, type TomlTable } from 'smol-toml';
import { ensurePrivateDirectory } from '../fs/index.ts';

const HEADER = [
  '# Written by Weft before each Codex turn: the model and its provider from your Codex config, nothing else',
  '# (no MCP servers, notify hooks, trusted projects or other settings). Edits here are replaced.',
  '',
].join('\n');

function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The person's Codex config: `$CODEX_HOME/config.toml` when they set one, else `~/.codex/config.toml`. */
function personalConfig(env: NodeJS.ProcessEnv, codexHome: string): string | null {
  if (env.CODEX_HOME && env.CODEX_HOME !== codexHome) return join(env.CODEX_HOME, 'config.toml');
  return env.HOME ? join(env.HOME, '.codex', 'config.toml') : null;
}

/**
 * What Weft takes from the person's Codex config: `model`, `model_provider` and that provider's table under
 * `model_providers` — how to reach the model, nothing that makes Codex run or trust anything. A file that is not
 * TOML gives nothing (Codex then uses its defaults).
 */
export function codexSeed(personal: string): TomlTable {
  let config: TomlTable;
  try {
    config = parse(personal);
  } catch {
    return {};
  }
  const seed: TomlTable = {};
  if (typeof config.model === 'string') seed.model = config.model;
  const provider = config.model_provider;
  if (typeof provider === 'string') {
    seed.model_provider = provider;
    const table = isTable(config.model_providers) ? config.model_providers[provider] : undefined;
    if (isTable(table)) seed.model_providers = { [provider]: table };
  }
  return seed;
}

/**
 * The CODEX_HOME Weft runs Codex with: created 0700, its config.toml rewritten before each use from the person's
 * Codex config (only read, never written) with just the model and its provider (`codexSeed`). Codex writes its
 * sessions here, never in `~/.codex`. Sign-in state is not copied: `CODEX_HOME=<this folder> codex login` signs in.
 */
export function prepareCodexHome(codexHome: string, env: NodeJS.ProcessEnv): string {
  ensurePrivateDirectory(codexHome);
  const config = join(codexHome, 'config.toml');
  const source = personalConfig(env, codexHome);
  const seed = source && existsSync(source) ? codexSeed(readFileSync(source, 'utf8')) : {};
  const text = HEADER + stringify(seed) + '\n';
  if (existsSync(config) && readFileSync(config, 'utf8') === text) return codexHome;
  // Written beside and renamed over: Codex never reads half a config.
  const temporary = `${config}.${randomUUID()}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, config);
  } finally {
    rmSync(temporary, { force: true });
  }
  return codexHome;
}
