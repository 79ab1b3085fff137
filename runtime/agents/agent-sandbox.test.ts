import { describe, expect, it } from 'vitest';
import { bwrapArguments, sandboxPlan, type SandboxRequest, type SystemLayout } from './agent-sandbox.ts';

const merged: SystemLayout = {
  folders: ['/usr'],
  links: [
    { path: '/bin', target: 'usr/bin' },
    { path: '/lib', target: 'usr/lib' },
  ],
  etc: ['/etc/passwd', '/etc/resolv.conf', '/etc/ssl'],
};

const request: SandboxRequest = {
  cwd: '/home/ana/project',
  readOnly: [
    '/home/ana/project/.weft/materials/node-1',
    '/home/ana/.npm-global/lib/node_modules',
    '/usr/lib/node_modules',
  ],
  writable: ['/home/ana/data/'],
  runtimeOwn: ['/home/ana/.pi/agent'],
  home: '/home/ana',
  guarded: { weftHome: '/home/ana/.weft', sessionRoots: ['/home/ana/.pi/agent/sessions', '/srv/sessions'] },
  tmpdir: '/home/ana/.tmp',
};

/** `[flag, path]` pairs of the binds, in the order bubblewrap makes them. */
function binds(args: string[]): [string, string][] {
  const found: [string, string][] = [];
  args.forEach((arg, index) => {
    if (/^--(ro-)?bind(-try)?$/.test(arg)) found.push([arg, args[index + 1]!]);
  });
  return found;
}

describe('sandboxPlan and bwrapArguments', () => {
  const args = bwrapArguments(sandboxPlan(request, merged), request.cwd);

  it('binds only what the turn was given: the working directory writable, the rest of the home hidden', () => {
    expect(binds(args)).toEqual([
      ['--ro-bind', '/usr'],
      ['--ro-bind-try', '/etc/passwd'],
      ['--ro-bind-try', '/etc/resolv.conf'],
      ['--ro-bind-try', '/etc/ssl'],
      ['--bind-try', '/home/ana/data'],
      ['--bind', '/home/ana/project'],
      ['--bind-try', '/home/ana/.pi/agent'],
      ['--ro-bind-try', '/home/ana/.npm-global/lib/node_modules'],
      ['--ro-bind-try', '/home/ana/project/.weft/materials/node-1'],
    ]);
    // Neither `/` nor the home is ever bound: whatever is not listed does not exist inside.
    expect(binds(args).map(([, path]) => path)).not.toContain('/');
    expect(binds(args).map(([, path]) => path)).not.toContain('/home/ana');
  });

  it('puts an empty tmpfs over /tmp, the home and $TMPDIR before any bind lands inside them', () => {
    const tmpfs = args.flatMap((arg, index) => (arg === '--tmpfs' ? [args[index + 1]] : []));
    expect(tmpfs).toEqual(['/tmp', '/home/ana', '/home/ana/.tmp']);
    expect(args.lastIndexOf('--tmpfs')).toBeLessThan(args.indexOf('/home/ana/project'));
  });

  it('keeps the materials read-only though they sit inside the writable working directory', () => {
    const order = binds(args).map(([, path]) => path);
    expect(order.indexOf('/home/ana/project/.weft/materials/node-1')).toBeGreaterThan(
      order.indexOf('/home/ana/project'),
    );
  });

  it('recreates the root links, makes /proc and /dev, and ends at `--` in the working directory', () => {
    expect(args.join(' ')).toContain('--symlink usr/bin /bin --symlink usr/lib /lib');
    expect(args.join(' ')).toContain('--proc /proc --dev /dev');
    expect(args).toContain('--unshare-user');
    expect(args).toContain('--die-with-parent');
    // The runtime keeps the network (its provider); the tools lose it one level down.
    expect(args).not.toContain('--unshare-net');
    expect(args.slice(-3)).toEqual(['--chdir', '/home/ana/project', '--']);
  });

  it('a path both read-only and writable is writable; the working directory is never read-only', () => {
    const plan = sandboxPlan({ ...request, readOnly: ['/srv/shared', request.cwd], writable: ['/srv/shared'] }, merged);
    expect(plan.mounts).toContainEqual({ kind: 'rw', path: '/srv/shared', optional: true });
    expect(plan.mounts).toContainEqual({ kind: 'rw', path: request.cwd, optional: false });
    expect(plan.mounts.filter((mount) => 'path' in mount && mount.path === request.cwd)).toHaveLength(1);
  });

  it('refuses a relative path instead of binding something unintended', () => {
    expect(() => sandboxPlan({ ...request, writable: ['data'] }, merged)).toThrow(/absolute/);
  });
});

describe("sandboxPlan never binds the home, Weft's home or a session root (issue 27.5)", () => {
  const paths = (plan: ReturnType<typeof sandboxPlan>) =>
    plan.mounts.flatMap((mount) => (mount.kind === 'ro' || mount.kind === 'rw' ? [mount.path] : []));
  const code = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return null;
  };

  it('narrows node at ~/bin/node to the executable, not its prefix (the home)', () => {
    // runtimeInstallPaths: node's prefix is the grandparent of ~/bin/node, listed with node itself.
    const plan = sandboxPlan({ ...request, readOnly: ['/home/ana', '/home/ana/bin/node'] }, merged);
    expect(paths(plan)).not.toContain('/home/ana');
    expect(plan.mounts).toContainEqual({ kind: 'ro', path: '/home/ana/bin/node', optional: true });
  });

  it('narrows a runtime at WEFT_PI_BIN=~/pi.sh to that file, not its folder', () => {
    const plan = sandboxPlan({ ...request, readOnly: ['/home/ana/pi.sh', '/home/ana/'] }, merged);
    expect(paths(plan)).not.toContain('/home/ana');
    expect(paths(plan)).toContain('/home/ana/pi.sh');
  });

  it("narrows a read-only folder holding Weft's home or a session root, refuses one with nothing narrower", () => {
    const narrowed = sandboxPlan({ ...request, readOnly: ['/srv', '/srv/tools/pi'] }, merged);
    expect(paths(narrowed)).toContain('/srv/tools/pi');
    expect(paths(narrowed)).not.toContain('/srv');
    expect(code(() => sandboxPlan({ ...request, readOnly: ['/srv'] }, merged))).toBe('AGENT_SANDBOX_TOO_WIDE');
    expect(code(() => sandboxPlan({ ...request, readOnly: ['/home/ana/.weft'] }, merged))).toBe(
      'AGENT_SANDBOX_TOO_WIDE',
    );
    expect(code(() => sandboxPlan({ ...request, readOnly: ['/'] }, merged))).toBe('AGENT_SANDBOX_TOO_WIDE');
    expect(paths(sandboxPlan({ ...request, readOnly: ['/', '/opt/node/bin/node'] }, merged))).not.toContain('/');
    // A path listed inside the wide folder that is itself guarded does not count as narrower.
    expect(code(() => sandboxPlan({ ...request, readOnly: ['/home', '/home/ana'] }, merged))).toBe(
      'AGENT_SANDBOX_TOO_WIDE',
    );
  });

  it('refuses a read-write bind that is or holds a guarded folder: a grant, the working directory', () => {
    for (const refused of [
      { writable: ['/home/ana'] },
      { writable: ['/home/ana/.weft'] },
      { writable: ['/srv'] },
      { cwd: '/home/ana' },
      { cwd: '/home/ana/.pi' },
    ])
      expect(code(() => sandboxPlan({ ...request, ...refused }, merged))).toBe('AGENT_SANDBOX_TOO_WIDE');
  });

  it("lets the runtime's own folder hold its sessions, never the home or Weft's home", () => {
    expect(paths(sandboxPlan(request, merged))).toContain('/home/ana/.pi/agent');
    expect(code(() => sandboxPlan({ ...request, runtimeOwn: ['/home/ana'] }, merged))).toBe('AGENT_SANDBOX_TOO_WIDE');
    expect(code(() => sandboxPlan({ ...request, runtimeOwn: ['/home/ana/.weft'] }, merged))).toBe(
      'AGENT_SANDBOX_TOO_WIDE',
    );
    expect(paths(sandboxPlan({ ...request, runtimeOwn: ['/home/ana/.weft/agents/codex-home'] }, merged))).toContain(
      '/home/ana/.weft/agents/codex-home',
    );
  });
});
