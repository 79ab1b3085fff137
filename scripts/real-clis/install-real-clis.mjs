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

/** Whether the pinned CLIs are in `prefix`, from the lock this folder pins. */
export function realClisInstalled(prefix) {
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
  if (realClisInstalled(prefix)) return prefix;
  mkdirSync(prefix, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(here, file), join(prefix, file));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: prefix,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // A registry that stops answering must fail the install (by name), not hang `npm test`.
    timeout: 10 * 60 * 1000,
    env: { ...env, npm_config_update_notifier: 'false' },
  });
  // npm's own output only when it failed: `npm test` prints one line for the whole install.
  if (run.status !== 0 || !realClisInstalled(prefix)) {
    const output = `${run.error?.message ?? ''}${run.stdout ?? ''}${run.stderr ?? ''}`.trim().slice(-600);
    throw new Error(`npm ci of the pinned CLIs failed in ${prefix}${output ? `:\n${output}` : ''}`);
  }
  return prefix;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${ensureRealClis()}\n`);
}
