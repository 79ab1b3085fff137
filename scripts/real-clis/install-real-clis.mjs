#!/usr/bin/env node
// Installs the pinned Claude Code, Codex and Pi CLIs (not project dependencies) for the real-CLI tests:
// `npm ci` from this folder's package-lock.json into $WEFT_REAL_CLIS_PREFIX (default ~/.cache/weft-real-clis).
// Reused while the installed lock matches; prints the prefix.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function realClisPrefix(env = process.env) {
  return env.WEFT_REAL_CLIS_PREFIX?.trim() || join(homedir(), '.cache', 'weft-real-clis');
}

export function realCliBinaries(prefix) {
  const bin = join(prefix, 'node_modules', '.bin');
  return { claude: join(bin, 'claude'), codex: join(bin, 'codex'), pi: join(bin, 'pi') };
}

function installed(prefix) {
  const lock = join(prefix, 'package-lock.json');
  const binaries = realCliBinaries(prefix);
  return (
    existsSync(lock) &&
    readFileSync(lock, 'utf8') === readFileSync(join(here, 'package-lock.json'), 'utf8') &&
    existsSync(binaries.claude) &&
    existsSync(binaries.codex) &&
    existsSync(binaries.pi)
  );
}

/** Installs when missing (or when the pinned lock changed); returns the prefix. */
export function ensureRealClis(env = process.env) {
  const prefix = realClisPrefix(env);
  if (installed(prefix)) return prefix;
  mkdirSync(prefix, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(here, file), join(prefix, file));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: prefix,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, npm_config_update_notifier: 'false' },
  });
  if (run.status !== 0 || !installed(prefix)) throw new Error(`npm ci of the pinned CLIs failed in ${prefix}`);
  return prefix;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${ensureRealClis()}\n`);
}
