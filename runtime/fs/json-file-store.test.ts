import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SettingsStore } from './settings-store.ts';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'weft-json-store-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

it('reads a corrupt file as empty and keeps it aside before the next write replaces it', async () => {
  await writeFile(join(home, 'settings.json'), '{"version":1,"providers":[{"id":"local"');
  const store = new SettingsStore(home);
  expect((await store.read()).providers).toEqual([]);
  await store.update((current) => ({ ...current, defaultModelId: 'offline/receipt' }));
  const names = await readdir(home);
  const aside = names.find((name) => name.startsWith('settings.json.corrupt-'));
  expect(aside).toBeDefined();
  expect(await readFile(join(home, aside!), 'utf8')).toBe('{"version":1,"providers":[{"id":"local"');
  expect(JSON.parse(await readFile(join(home, 'settings.json'), 'utf8')).defaultModelId).toBe('offline/receipt');
  // Only the first write moves anything aside.
  await store.update((current) => ({ ...current, defaultModelId: null }));
  expect((await readdir(home)).filter((name) => name.includes('.corrupt-'))).toHaveLength(1);
});
