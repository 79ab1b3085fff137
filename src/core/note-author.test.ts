import { describe, expect, it } from 'vitest';
import { noteAuthor, type NoteNode } from '../../protocol/index.ts';
import { demoCanvas } from './demo-canvas.ts';
import { TestCanvas } from './test-canvas.ts';

const noteOf = (canvas: TestCanvas, id: string) => canvas.graph.nodes.get(id) as NoteNode;

/** C14: who wrote a note decides whether memory may take it as the person's words. */
describe('note authorship through applyChange', () => {
  it('records the person as the author of a note added without one, and the app when the app says so', () => {
    const canvas = new TestCanvas();
    const mine = canvas.addNote('I like terse answers.');
    const weft = canvas.apply({ type: 'add-node', node: { kind: 'note', text: 'Context compacted.', author: 'app' } })
      .created[0]!;
    expect(noteOf(canvas, mine).author).toBe('person');
    expect(noteOf(canvas, weft).author).toBe('app');
  });

  it('makes an app note the person’s once they change its text, not when they leave it as it was', () => {
    const canvas = new TestCanvas();
    const weft = canvas.apply({ type: 'add-node', node: { kind: 'note', text: 'Keep it short.', author: 'app' } })
      .created[0]!;
    canvas.edit(weft, { text: 'Keep it short.' });
    expect(noteOf(canvas, weft).author).toBe('app');
    canvas.edit(weft, { text: 'Keep it short, and in French.' });
    expect(noteOf(canvas, weft).author).toBe('person');
    // Once the person's, it stays theirs.
    canvas.edit(weft, { text: 'Keep it short.' });
    expect(noteOf(canvas, weft).author).toBe('person');
  });

  it('writes the demo canvas note as the app’s', () => {
    let counter = 0;
    const document = demoCanvas(1_780_000_000_000, () => `demo-${++counter}`);
    const notes = document.nodes.filter((node) => node.kind === 'note');
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(noteAuthor(note)).toBe('app');
  });
});
