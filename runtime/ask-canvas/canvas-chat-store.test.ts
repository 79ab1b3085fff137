import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskCanvasTurn } from '../../protocol/index.ts';
import { CanvasChatStore, canvasChatsDirectory } from './canvas-chat-store.ts';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const path = mkdtempSync(join(tmpdir(), 'weft-chat-'));
  homes.push(path);
  return path;
}

const turn = (id: string): AskCanvasTurn => ({
  id,
  askedAt: 1,
  question: 'q',
  answer: 'a',
  status: 'complete',
  code: null,
  model: 'm/x',
  requestHash: 'c'.repeat(64),
  focusId: null,
  layers: { outline: ['n1'], chain: [], materials: [], references: [] },
});

describe('CanvasChatStore', () => {
  it('keeps turns in order, per canvas, and a new store (a restart) reads them back', async () => {
    const folder = home();
    const store = new CanvasChatStore(folder);
    await store.append('one', turn('t1'));
    await store.append('one', turn('t2'));
    await store.append('two', turn('t3'));
    const restarted = new CanvasChatStore(folder);
    expect((await restarted.turns('one')).map((entry) => entry.id)).toEqual(['t1', 't2']);
    expect((await restarted.turns('two')).map((entry) => entry.id)).toEqual(['t3']);
    expect(statSync(join(canvasChatsDirectory(folder), 'one.chat.json')).mode & 0o777).toBe(0o600);
    expect(statSync(canvasChatsDirectory(folder)).mode & 0o777).toBe(0o700);
  });

  it('five concurrent appends all land', async () => {
    const store = new CanvasChatStore(home());
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => store.append('busy', turn(id))));
    expect((await store.turns('busy')).map((entry) => entry.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a corrupt file reads as an empty chat and is kept aside at the next write', async () => {
    const folder = home();
    await new CanvasChatStore(folder).append('broken', turn('t0'));
    writeFileSync(join(canvasChatsDirectory(folder), 'broken.chat.json'), '{ not json');
    const store = new CanvasChatStore(folder);
    expect(await store.turns('broken')).toEqual([]);
    await store.append('broken', turn('t1'));
    expect((await store.turns('broken')).map((entry) => entry.id)).toEqual(['t1']);
    expect(readdirSync(canvasChatsDirectory(folder)).some((name) => name.startsWith('broken.chat.json.corrupt-'))).toBe(
      true,
    );
  });

  it('refuses an id that could leave the folder', async () => {
    await expect(new CanvasChatStore(home()).turns('../escape')).rejects.toMatchObject({ code: 'invalid-id' });
  });
});
