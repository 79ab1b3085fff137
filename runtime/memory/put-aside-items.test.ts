import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CanvasStore, PutAsideStore } from '../fs/index.ts';
import { struckSentenceChange } from '../fs/testing/struck-sentence-change.ts';
import { putAsideItems, restorePutAside } from './put-aside-items.ts';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

async function storeOf(count: number): Promise<{ store: PutAsideStore; canvases: CanvasStore }> {
  const home = mkdtempSync(join(tmpdir(), 'weft-put-aside-items-'));
  homes.push(home);
  const store = new PutAsideStore(home);
  for (let index = 1; index <= count; index += 1) {
    const text = `struck sentence number ${index}`;
    await store.append([struckSentenceChange(text, { at: index, origin: { topicId: 't', sentenceId: `s${index}` } })]);
  }
  return { store, canvases: new CanvasStore({ directory: join(home, 'canvases') }) };
}

describe('the Put aside page, page by page (issue 29.2)', () => {
  it('goes on after the cursor even when the cursor’s own item was restored between two pages', async () => {
    const { store, canvases } = await storeOf(5);
    const first = await putAsideItems(store, canvases, { cursor: null, limit: 2 });
    expect(first.items.map((item) => item.excerpt)).toEqual(['struck sentence number 5', 'struck sentence number 4']);
    expect(first.total).toBe(5);
    await restorePutAside(store, first.nextCursor!, 10);
    const second = await putAsideItems(store, canvases, { cursor: first.nextCursor, limit: 2 });
    expect(second.items.map((item) => item.excerpt)).toEqual(['struck sentence number 3', 'struck sentence number 2']);
    const third = await putAsideItems(store, canvases, { cursor: second.nextCursor, limit: 2 });
    expect(third.items.map((item) => item.excerpt)).toEqual(['struck sentence number 1']);
    expect(third.nextCursor).toBeNull();
  });
});
