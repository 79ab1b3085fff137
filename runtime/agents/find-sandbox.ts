import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, sep } from 'node:path';
import type { SystemLayout } from './agent-sandbox.ts';

/** Where bubblewrap runs the agent lane, or why the lane runs unconfined here. */
export type SandboxSupport = { bwrap: string } | { unconfined: string };

const ROOT_ENTRIES = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const ETC = [
  'passwd',
  'group',
  'hosts',
  'resolv.conf',
  'nsswitch.conf',
  'host.conf',
  'gai.conf',
  'localtime',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'pki',
  'crypto-policies',
  'gitconfig',
  'os-release',
];

let probed: Map<string, SandboxSupport> | null = null;

/**
 * bubblewrap on PATH (or `/usr/bin/bwrap`) that can make a user namespace here — tried once per binary with the
 * smallest sandbox. Anything but Linux, or a failed try, runs unconfined, with the reason the picker shows.
 */
export function findSandbox(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): SandboxSupport {
  if (platform !== 'linux') return { unconfined: `no sandbox for agents on ${platform} (Linux only, bubblewrap)` };
  const bwrap = lookup('bwrap', env) ?? (existsSync('/usr/bin/bwrap') ? '/usr/bin/bwrap' : null);
  if (!bwrap) return { unconfined: 'bubblewrap is not installed (Debian/Ubuntu: apt install bubblewrap)' };
  probed ??= new Map();
  const known = probed.get(bwrap);
  if (known) return known;
  const trial = spawnSync(bwrap, ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  const support: SandboxSupport =
    trial.status === 0
      ? { bwrap }
      : { unconfined: `bubblewrap cannot make a user namespace here: ${(trial.stderr || String(trial.error)).trim()}` };
  probed.set(bwrap, support);
  return support;
}

function lookup(command: string, env: NodeJS.ProcessEnv): string | null {
  for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(folder, command);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** The host's `/usr`, its root links or folders and the `/etc` entries that exist, for `sandboxPlan`. */
export function systemLayout(): SystemLayout {
  const folders = ['/usr'];
  const links: { path: string; target: string }[] = [];
  for (const entry of ROOT_ENTRIES) {
    const stat = lstatSync(entry, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) links.push({ path: entry, target: readlinkSync(entry) });
    else if (stat?.isDirectory()) folders.push(entry);
  }
  const etc = ETC.map((name) => `/etc/${name}`).filter((path) => existsSync(path));
  return { folders, links, etc };
}

/**
 * What a runtime needs to run: the outermost `node_modules` its executable lives in (the CLI and its packages —
 * Codex's native binary is one of them), or the executable's folder; node's own prefix, found on PATH; and the
 * executables themselves, which is all the sandbox binds where a folder above is the home (`sandboxPlan`).
 */
export function runtimeInstallPaths(bin: string, env: NodeJS.ProcessEnv): string[] {
  const real = realpathSync(bin);
  const paths = [installRoot(bin), installRoot(real)];
  const node = lookup('node', env);
  const realNode = node ? realpathSync(node) : null;
  if (realNode) paths.push(dirname(dirname(realNode)));
  paths.push(bin, real, ...(node && realNode ? [node, realNode] : []));
  return [...new Set(paths)];
}

function installRoot(path: string): string {
  const parts = path.split(sep);
  const outermost = parts.indexOf('node_modules');
  return outermost > 0 ? parts.slice(0, outermost + 1).join(sep) : dirname(path);
}
