import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The guard runs inside Pi; here its handlers are driven with the argument shapes Pi 0.73 passes them.
import weftGuard, { withoutNetwork } from './pi-guard-extension.mjs';

type Handler = (event: unknown, context: unknown) => unknown;

function loadGuard(mode: string, answer: string | undefined | Error, cwd = '/work/repo') {
  process.env.WEFT_GUARD_MODE = mode;
  const handlers = new Map<string, Handler>();
  const titles: string[] = [];
  weftGuard({ on: (name: string, handler: Handler) => void handlers.set(name, handler) });
  const context = {
    cwd,
    hasUI: true,
    ui: {
      select: (title: string) => {
        titles.push(title);
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
    },
  };
  const call = (toolName: string, input: unknown) =>
    handlers.get('tool_call')!({ toolName, toolCallId: `c-${toolName}`, input }, context);
  return { call, titles };
}

describe('the Pi guard extension', () => {
  it('ask: a write inside runs unasked; outside, the card names the path; deny blocks it', async () => {
    const guard = loadGuard('ask', 'Deny');
    expect(await guard.call('write', { path: 'a.txt' })).toBeUndefined();
    expect(await guard.call('write', { path: '../b.txt' })).toMatchObject({ block: true });
    expect(JSON.parse(guard.titles[0]!.slice('weft-guard '.length))).toMatchObject({
      toolName: 'write',
      leaves: '/work/b.txt',
      reason: 'path-leaves-folder',
    });
  });

  it('ask: any shell command asks; no answer or a failing dialog is a deny', async () => {
    expect(await loadGuard('ask', undefined).call('bash', { command: 'ls' })).toMatchObject({ block: true });
    expect(await loadGuard('ask', new Error('closed')).call('bash', { command: 'ls' })).toMatchObject({ block: true });
  });

  it('asks on every call after allow for this turn: Weft answers at once and records each call', async () => {
    const guard = loadGuard('ask', 'Allow for this turn');
    expect(await guard.call('bash', { command: 'ls' })).toBeUndefined();
    expect(await guard.call('write', { path: '/etc/x' })).toBeUndefined();
    expect(guard.titles).toHaveLength(2);
  });

  it('allow is never full access (Pi has no sandbox): shell commands and reads or writes outside still ask', async () => {
    const guard = loadGuard('allow', 'Deny');
    expect(await guard.call('read', { path: 'src/a.ts' })).toBeUndefined();
    expect(await guard.call('bash', { command: 'make' })).toMatchObject({ block: true });
    expect(await guard.call('read', { path: '/etc/hosts' })).toMatchObject({ block: true });
    expect(await guard.call('edit', { path: '/etc/hosts' })).toMatchObject({ block: true });
    expect(guard.titles).toHaveLength(3);
  });

  it('judges the path Pi opens: a leading @, unicode spaces and ~ are read the way Pi reads them', async () => {
    const guard = loadGuard('ask', 'Deny');
    expect(await guard.call('write', { path: '@/outside/x' })).toMatchObject({ block: true });
    expect(await guard.call('read', { path: '~/x' })).toMatchObject({ block: true });
    expect(await guard.call('write', { path: '@notes/in\u00A0side.txt' })).toBeUndefined();
    const leaves = guard.titles.map(
      (title) => (JSON.parse(title.slice('weft-guard '.length)) as { leaves: string }).leaves,
    );
    expect(leaves).toEqual(['/outside/x', join(homedir(), 'x')]);
  });

  it('a link inside the folder that leads outside asks, naming where it leads (a real folder in tmp)', async () => {
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'weft-guard-')));
    try {
      mkdirSync(join(scratch, 'repo'));
      mkdirSync(join(scratch, 'elsewhere'));
      symlinkSync(join(scratch, 'elsewhere'), join(scratch, 'repo', 'out'));
      const guard = loadGuard('ask', 'Deny', join(scratch, 'repo'));
      expect(await guard.call('write', { path: 'in.txt' })).toBeUndefined();
      expect(await guard.call('write', { path: 'out/x.txt' })).toMatchObject({ block: true });
      expect(JSON.parse(guard.titles[0]!.slice('weft-guard '.length))).toMatchObject({
        leaves: join(scratch, 'elsewhere', 'x.txt'),
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('with the network cut, an allowed shell command is wrapped; the card shows it as written, a denied one is not run', async () => {
    process.env.WEFT_SANDBOX_NET_CUT = '/usr/bin/bwrap';
    try {
      const allowed = loadGuard('ask', 'Allow once');
      const input = { command: "echo 'hi'" };
      expect(await allowed.call('bash', input)).toBeUndefined();
      expect(input.command).toBe(withoutNetwork('/usr/bin/bwrap', "echo 'hi'"));
      expect(JSON.parse(allowed.titles[0]!.slice('weft-guard '.length))).toMatchObject({
        args: { command: "echo 'hi'" },
      });
      const denied = { command: 'ls' };
      expect(await loadGuard('ask', 'Deny').call('bash', denied)).toMatchObject({ block: true });
      expect(denied.command).toBe('ls');
    } finally {
      delete process.env.WEFT_SANDBOX_NET_CUT;
    }
  });

  it.skipIf(!existsSync('/usr/bin/bwrap'))(
    'the wrapped command runs but cannot reach a loopback listener; unwrapped it does (real bash, real bwrap)',
    async () => {
      let connections = 0;
      const listener = createServer((socket) => {
        connections += 1;
        socket.end();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const { port } = listener.address() as { port: number };
      // bash's own /dev/tcp: no curl needed; quotes in the command survive the wrapping.
      const command = `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo 'it reached' || echo "it did not"`;
      const run = (text: string) => spawnSync('/bin/bash', ['-c', text], { encoding: 'utf8', timeout: 10_000 });
      try {
        const cut = run(withoutNetwork('/usr/bin/bwrap', command));
        expect(cut.stdout.trim()).toBe('it did not');
        expect(connections).toBe(0);
        expect(run(command).stdout.trim()).toBe('it reached');
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(connections).toBe(1);
      } finally {
        listener.close();
      }
    },
  );
});
