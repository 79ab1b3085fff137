import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addLine, deleteLine } from '../src/core/memory/index.ts';
import { supersedingStatements } from '../src/core/memory/memory-test-kit.ts';
import { MemoryStore } from '../runtime/memory/index.ts';
import { startTestServer } from '../tests/support/test-server.ts';
import type { HistoryVersion } from './commands/memory-history-command.ts';
import { runWeftInProcess } from './run-weft.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'weft-cli-history-'));
  mkdirSync(join(folder, 'sessions'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const home = () => join(folder, 'home');
const weft = (...argv: string[]) =>
  runWeftInProcess(argv, { cwd: folder, env: { WEFT_HOME: home(), WEFT_SESSION_ROOTS: join(folder, 'sessions') } });

const DAY = 86_400_000;
const MARCH = Date.UTC(2026, 2, 1);
const JUNE = Date.UTC(2026, 5, 1);

/** Lyon (March) superseded by Paris (June), and a preference deleted in June, written by the real store. */
async function storedProfile(): Promise<void> {
  const { profile } = supersedingStatements(
    [
      { said: 'I live in Lyon with my family.', text: 'Lives in Lyon', at: MARCH, id: 'line-lyon' },
      { said: 'I live in Paris with my family.', text: 'Lives in Paris', at: JUNE, id: 'line-paris' },
    ],
    'identity',
    2 * DAY,
  );
  const added = addLine(profile, 'preferences', 'Prefers tabs', { now: MARCH, newId: () => 'line-tabs' });
  if (!added.ok) throw new Error(added.error);
  const deleted = deleteLine(added.value.profile, 'line-tabs', { now: JUNE, newId: () => 'refusal-tabs' });
  if (!deleted.ok) throw new Error(deleted.error);
  const store = new MemoryStore({ directory: join(home(), 'memory'), now: () => JUNE, newId: () => 'e' });
  await store.update(null, () => ({ change: { profile: deleted.value.profile, events: [] }, result: null }));
}

const iso = (at: number) => new Date(at).toISOString();

describe('weft memory history <line> (issue 29.4)', () => {
  it("shows a superseded line's versions with both times, from any line of the chain", async () => {
    await storedProfile();
    for (const id of ['line-lyon', 'line-paris']) {
      const run = await weft('memory', 'history', id);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.split('\n');
      expect(lines[0]).toBe(`identity line ${id}: 2 version(s), oldest first`);
      expect(run.stdout.indexOf('Lives in Lyon')).toBeLessThan(run.stdout.indexOf('Lives in Paris'));
      expect(run.stdout).toContain(`recorded at ${iso(MARCH + 2 * DAY)}  valid from ${iso(MARCH)} to ${iso(JUNE)}`);
      expect(run.stdout).toContain(`recorded at ${iso(JUNE + 2 * DAY)}  valid from ${iso(JUNE)} to now`);
      expect(run.stdout).toContain(`superseded by line-paris (recorded ${iso(JUNE + 2 * DAY)})`);
      expect(run.stdout).toContain('known as: stated (stated by you)  evidence: stated');
    }
    const json = JSON.parse((await weft('memory', 'history', 'line-paris', '--json')).stdout) as {
      source: string;
      versions: HistoryVersion[];
    };
    expect(json.source).toBe('files');
    expect(json.versions.map((version) => [version.id, version.validFrom, version.validTo, version.knownAs])).toEqual([
      ['line-lyon', MARCH, JUNE, 'stated'],
      ['line-paris', JUNE, null, 'stated'],
    ]);
  });

  it('a deleted line was never superseded: no end of validity, and it is not "now"', async () => {
    await storedProfile();
    const run = await weft('memory', 'history', 'line-tabs');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`valid from ${iso(MARCH)} (never superseded)`);
    expect(run.stdout).toContain(`deleted at ${iso(JUNE)}`);
    expect(run.stdout).toContain('known as: stated (stated by you)  evidence: manual');
    expect(run.stdout).not.toContain('to now');
  });

  it('refuses an unknown or missing line', async () => {
    await storedProfile();
    const unknown = await weft('memory', 'history', 'no-such-line');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no-such-line');
    expect((await weft('memory', 'history')).code).not.toBe(0);
  });

  it('reads through the running server for this home', async () => {
    await storedProfile();
    const server = await startTestServer({ home: home() });
    try {
      const json = JSON.parse((await weft('memory', 'history', 'line-lyon', '--json')).stdout) as {
        source: string;
        versions: HistoryVersion[];
      };
      expect(json.source).toBe('server');
      expect(json.versions.map((version) => version.text)).toEqual(['Lives in Lyon', 'Lives in Paris']);
    } finally {
      await server.close();
    }
  });
});
