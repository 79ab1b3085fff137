import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanvasNode } from '../../protocol/index.ts';
import { TestCanvas } from '../../src/core/test-canvas.ts';
import { AuthorshipHistory } from './authorship-history.ts';

/** Issue 27.3: what a model or Weft wrote under a removed id is remembered across restarts, never the person's own. */
let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-authors-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function nodes(): CanvasNode[] {
  const canvas = new TestCanvas({ idPrefix: 'h-' });
  canvas.apply({ type: 'add-node', node: { kind: 'question', question: 'Tabs, do you?', questionAuthor: 'model' } });
  canvas.apply({ type: 'add-node', node: { kind: 'note', text: 'Summary by Weft.', author: 'app' } });
  canvas.addNote('My own note.');
  return canvas.document().nodes;
}

describe('AuthorshipHistory', () => {
  it('remembers the removed words of a model or Weft by id, across a restart and a torn line', async () => {
    const [question, appNote, mine] = nodes();
    const history = new AuthorshipHistory(directory);
    await history.retireRemoved('alpha', [question!, appNote!, mine!], [appNote!]);
    const wrote = await history.wroteBefore('alpha');
    expect(wrote(question!.id, 'Tabs, do you?')).toBe(true);
    expect(wrote(question!.id, 'Tabs or spaces for Go?')).toBe(false);
    // Still on the canvas, or the person's own: not retired.
    expect(wrote(appNote!.id, 'Summary by Weft.')).toBe(false);
    expect(wrote(mine!.id, 'My own note.')).toBe(false);
    expect((await history.wroteBefore('beta'))(question!.id, 'Tabs, do you?')).toBe(false);

    await appendFile(join(directory, 'authorship.jsonl'), '{"canvasId":"alpha","nodeId":');
    const restarted = new AuthorshipHistory(directory);
    await restarted.retire('alpha', [appNote!]);
    const after = await new AuthorshipHistory(directory).wroteBefore('alpha');
    expect(after(question!.id, 'Tabs, do you?')).toBe(true);
    expect(after(appNote!.id, 'Summary by Weft.')).toBe(true);
  });
});
