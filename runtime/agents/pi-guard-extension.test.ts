import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The guard runs inside Pi; here its handlers are driven with the argument shapes Pi 0.73 passes them.
import weftGuard from './pi-guard-extension.mjs';

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
});
