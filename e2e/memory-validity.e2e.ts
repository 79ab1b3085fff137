import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryProfile } from '../protocol/index.ts';
import { supersedingStatements } from '../src/core/memory/memory-test-kit.ts';
import { MemoryStore } from '../runtime/memory/index.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// #29.4 on the Memory page: a line says since when it holds, and the line it superseded keeps its interval.
const MARCH = Date.UTC(2026, 2, 1, 12);
const JUNE = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;
let app: LaunchedApp;
let home: string;

/** "I live in Lyon…" said in March, superseded by "I live in Paris…" said in June; each accepted two days later. */
function movedProfile(): MemoryProfile {
  return supersedingStatements(
    [
      { said: 'I live in Lyon with my family.', at: MARCH, id: 'line-Lyon' },
      { said: 'I live in Paris with my family.', at: JUNE, id: 'line-Paris' },
    ],
    'identity',
    2 * DAY,
  ).profile;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'weft-e2e-validity-'));
  const store = new MemoryStore({ directory: join(home, 'memory'), now: () => JUNE, newId: () => 'e' });
  await store.update(null, () => ({ change: { profile: movedProfile(), events: [] }, result: null }));
  app = await launchApp({ home });
});
afterAll(async () => {
  await app?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('when a fact was true, on the Memory page', () => {
  it('shows "valid since" on the current line and the superseded line with its interval', async () => {
    const page = app.page;
    await page.getByTestId('tab-memory').click();
    await page.getByTestId('memory-page').waitFor();
    const line = page.getByTestId('memory-document-identity').getByTestId('memory-line');
    await line.first().waitFor();
    expect(await line.count()).toBe(1);
    await line.first().locator('.memory-line-text').click();
    const provenance = page.getByTestId('memory-provenance');
    await provenance.waitFor();
    // Recorded two days after it was said: the two times differ, and "valid since" is the day it was said.
    const since = (await provenance.getByTestId('memory-valid-since').textContent())!;
    expect(since).toMatch(/^valid since .*2026/);
    expect(since).toMatch(/Jun/);
    expect(await provenance.textContent()).toMatch(/recorded .*Jun.*3/);
    const earlier = provenance.getByTestId('memory-history-line');
    expect(await earlier.count()).toBe(1);
    expect(await earlier.locator('s').textContent()).toBe('I live in Lyon with my family.');
    const interval = (await earlier.getByTestId('memory-history-interval').textContent())!;
    expect(interval).toMatch(/^\(stated in your words, recorded .*Mar.*, valid .*Mar.*1.* – .*Jun.*1.*\)$/);
    // #29: the earlier version also says how it is known, in words.
    expect(await earlier.getByTestId('memory-history-known-as').textContent()).toBe('stated by you');
    expect(app.pageErrors).toEqual([]);
  });
});
