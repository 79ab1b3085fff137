import { isAbsolute, normalize, sep } from 'node:path';
import { AgentRuntimeError } from './agent-runtime-error.ts';

/**
 * What a runtime may reach inside bubblewrap: a root built from nothing, into which only the listed paths are
 * bound. Everything else of the disk — the person's home first of all — is not there to be read.
 */
export interface SandboxRequest {
  /** The working directory: read-write. */
  cwd: string;
  /** The turn's materials (inside `cwd`), the runtime's install and its executables, node: read-only. */
  readOnly: readonly string[];
  /** The paths the person granted: read-write. */
  writable: readonly string[];
  /** The runtime's own folders (Codex home, Pi's agent folder): read-write, and they may hold its own sessions. */
  runtimeOwn: readonly string[];
  /** `$HOME`: an empty tmpfs, so the runtime still has a home to write caches into. */
  home: string;
  /** Folders that, like `home`, no bind may be or hold (see `sandboxPlan`). */
  guarded: SandboxGuarded;
  /** `$TMPDIR` when set: an empty tmpfs as well (`/tmp` always is one). */
  tmpdir: string | null;
}

/** Weft's home and the Atlas's session roots: hidden from every turn, as the person's home is. */
export interface SandboxGuarded {
  weftHome: string;
  sessionRoots: readonly string[];
}

/** The host's system folders, as found on disk (`systemLayout` in find-sandbox.ts): the plan stays pure. */
export interface SystemLayout {
  /** Real folders bound read-only (`/usr`, and `/bin` … where they are not links). */
  folders: readonly string[];
  /** Links at the root (`/bin -> usr/bin` on a merged-/usr system), recreated as they are. */
  links: readonly { path: string; target: string }[];
  /** The few files and folders of `/etc` a program needs (names, DNS, certificates, the loader's cache). */
  etc: readonly string[];
}

export type SandboxMount =
  | { kind: 'ro' | 'rw'; path: string; optional: boolean }
  | { kind: 'tmpfs'; path: string }
  | { kind: 'symlink'; path: string; target: string };

export interface SandboxPlan {
  mounts: SandboxMount[];
}

const depth = (path: string) => path.split(sep).filter(Boolean).length;

const inside = (folder: string, path: string) =>
  path === folder || path.startsWith(folder + sep) || (folder === sep && path.startsWith(sep));

/** The first of `folders` that binding `path` would show: `path` itself or a folder inside it. */
const heldBy = (path: string, folders: readonly string[]) => folders.find((folder) => inside(path, folder));

function tooWide(path: string, held: string, narrowed: boolean): AgentRuntimeError {
  return new AgentRuntimeError(
    'AGENT_SANDBOX_TOO_WIDE',
    `The agent sandbox would bind ${path}, which holds ${held} (the home, Weft's home or a session root)` +
      (narrowed ? ', and nothing narrower inside it is known to bind instead.' : '; bind a folder inside it instead.'),
  );
}

function absolute(path: string): string {
  if (!isAbsolute(path)) throw new Error(`sandbox path must be absolute: ${path}`);
  const plain = normalize(path);
  return plain.length > 1 && plain.endsWith(sep) ? plain.slice(0, -1) : plain;
}

/**
 * The mounts for one turn, in the order bubblewrap must make them: system folders, the empty places (`/tmp`,
 * home, `$TMPDIR`), then every bind from the shallowest path down, so a folder bound inside another (the
 * read-only materials inside the writable working directory, Pi's folder inside the hidden home) lands on top.
 *
 * No bind may be or hold the home, Weft's home or a session root (issue 27.5: node at `~/bin/node` puts the whole
 * home in its install prefix). A read-only folder that would is narrowed to the read-only paths listed inside it
 * (`runtimeInstallPaths` lists the executables themselves); with none, and for any read-write bind, the turn is
 * refused with `AGENT_SANDBOX_TOO_WIDE`. The runtime's own folders may hold a session root: their own sessions.
 */
export function sandboxPlan(request: SandboxRequest, system: SystemLayout): SandboxPlan {
  const mounts: SandboxMount[] = [];
  for (const folder of system.folders) mounts.push({ kind: 'ro', path: absolute(folder), optional: false });
  for (const link of system.links) mounts.push({ kind: 'symlink', path: absolute(link.path), target: link.target });
  for (const entry of system.etc) mounts.push({ kind: 'ro', path: absolute(entry), optional: true });
  const empty = [...new Set(['/tmp', absolute(request.home), ...(request.tmpdir ? [absolute(request.tmpdir)] : [])])];
  for (const path of empty.sort((a, b) => depth(a) - depth(b))) mounts.push({ kind: 'tmpfs', path });

  const homes = [absolute(request.home), absolute(request.guarded.weftHome)];
  const guarded = [...homes, ...request.guarded.sessionRoots.map(absolute)];
  const allRead = request.readOnly.map(absolute);
  const readOnly = allRead.filter((path) => {
    const held = heldBy(path, guarded);
    if (held === undefined) return true;
    if (!allRead.some((other) => other !== path && inside(path, other) && heldBy(other, guarded) === undefined))
      throw tooWide(path, held, true);
    return false;
  });
  const cwd = absolute(request.cwd);
  const writable = [...request.writable.map(absolute), cwd];
  for (const path of writable) {
    const held = heldBy(path, guarded);
    if (held !== undefined) throw tooWide(path, held, false);
  }
  const runtimeOwn = request.runtimeOwn.map(absolute);
  for (const path of runtimeOwn) {
    const held = heldBy(path, homes);
    if (held !== undefined) throw tooWide(path, held, false);
  }

  const binds = new Map<string, 'ro' | 'rw'>();
  const systemRoots = system.folders.map(absolute);
  for (const path of readOnly) {
    // Already there, read-only, with the system (node in /usr/bin, a CLI under /usr/lib/node_modules).
    if (!systemRoots.some((root) => inside(root, path))) binds.set(path, 'ro');
  }
  // Writable wins over read-only for the same path; the working directory is always writable.
  for (const path of [...runtimeOwn, ...writable]) binds.set(path, 'rw');
  // Read-only inside the working directory stays read-only: the materials are the person's, not the agent's.
  for (const path of readOnly) if (path !== cwd && inside(cwd, path)) binds.set(path, 'ro');
  const ordered = [...binds].sort(([a], [b]) => depth(a) - depth(b) || a.localeCompare(b));
  for (const [path, kind] of ordered) mounts.push({ kind, path, optional: path !== cwd });
  return { mounts };
}

/**
 * bubblewrap's arguments for a plan, up to and including `--`: new user, PID, IPC and UTS namespaces, the host's
 * network kept (the runtime must reach its provider; the tools' network is cut one level down, see README), and
 * the sandbox dies with Weft.
 */
export function bwrapArguments(plan: SandboxPlan, cwd: string): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-user', '--unshare-pid', '--unshare-ipc'];
  args.push('--unshare-uts', '--unshare-cgroup-try', '--proc', '/proc', '--dev', '/dev');
  for (const mount of plan.mounts) {
    if (mount.kind === 'tmpfs') args.push('--tmpfs', mount.path);
    else if (mount.kind === 'symlink') args.push('--symlink', mount.target, mount.path);
    else {
      const flag = mount.kind === 'ro' ? '--ro-bind' : '--bind';
      args.push(mount.optional ? `${flag}-try` : flag, mount.path, mount.path);
    }
  }
  args.push('--chdir', absolute(cwd), '--');
  return args;
}
