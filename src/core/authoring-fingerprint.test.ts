import { describe, expect, it } from 'vitest';
import { computeStaleFull } from './stale-tracker.ts';
import { upstreamFingerprint } from './fingerprint.ts';
import { mentionToken } from './mention-text.ts';
import { TestCanvas } from './test-canvas.ts';

/** root → middle → leaf, each answered; root sets a role. */
function chain() {
  const canvas = new TestCanvas();
  const root = canvas.addQuestion('Root?', { id: 'root' });
  canvas.edit(root, { role: { mode: 'set', text: 'Role A' } });
  const versionId = canvas.answer(root, 'Root answer. Key sentence here.');
  const middle = canvas.addQuestion('Middle?', { id: 'middle' });
  canvas.wire(root, middle);
  canvas.answer(middle, 'Middle answer.');
  const leaf = canvas.addQuestion('Leaf?', { id: 'leaf' });
  canvas.wire(middle, leaf);
  canvas.answer(leaf, 'Leaf answer.');
  canvas.assertStale([]);
  return { canvas, root, middle, leaf, versionId };
}

describe('which authoring edits make answers stale (C6 with C29–C33)', () => {
  it('a role edit makes the node and everything below it stale', () => {
    const { canvas, root, middle, leaf } = chain();
    canvas.edit(root, { role: { mode: 'set', text: 'Role B' } });
    canvas.assertStale([leaf, middle, root].sort());
    expect(computeStaleFull(canvas.graph).stale).toEqual(canvas.tracker.stale);
  });

  it('resetting the role below the root makes that node and its descendants stale, not the root', () => {
    const { canvas, middle, leaf } = chain();
    canvas.edit(middle, { role: { mode: 'reset', text: '' } });
    canvas.assertStale([leaf, middle].sort());
  });

  it('a role pick that changes the resolved role makes the join stale; one that does not, nothing', () => {
    const canvas = new TestCanvas();
    const left = canvas.addQuestion('L?', { id: 'left' });
    canvas.edit(left, { role: { mode: 'set', text: 'Role L' } });
    const right = canvas.addQuestion('R?', { id: 'right' });
    canvas.edit(right, { role: { mode: 'set', text: 'Role R' } });
    const join = canvas.addQuestion('J?', { id: 'join' });
    canvas.wire(left, join);
    canvas.wire(right, join);
    canvas.edit(join, { rolePick: 'left' });
    canvas.answer(join, 'J answer.');
    canvas.edit(join, { rolePick: 'right' });
    canvas.assertStale([join]);
    canvas.edit(join, { rolePick: 'left' });
    canvas.assertStale([]);
  });

  it('a layout change (moving, resizing) makes nothing stale and leaves every fingerprint as it was', () => {
    const { canvas, root, middle, leaf } = chain();
    const before = [root, middle, leaf].map((id) => upstreamFingerprint(canvas.graph, id));
    canvas.apply({ type: 'move-node', nodeId: root, position: { x: 900, y: 40 }, size: { width: 300, height: 200 } });
    canvas.assertStale([]);
    expect([root, middle, leaf].map((id) => upstreamFingerprint(canvas.graph, id))).toEqual(before);
  });

  it('highlights in full-text mode change nothing; tag or highlights-only make what reads the answer stale', () => {
    const { canvas, root, middle, leaf, versionId } = chain();
    const text = 'Key sentence here.';
    const start = 'Root answer. '.length;
    canvas.edit(root, { highlights: [{ versionId, start, end: start + text.length, text }] });
    canvas.assertStale([]);
    canvas.edit(root, { highlightMode: 'tag' });
    canvas.assertStale([leaf, middle].sort());
    canvas.edit(root, { highlightMode: 'full' });
    canvas.assertStale([]);
    canvas.edit(root, { highlightMode: 'only' });
    canvas.assertStale([leaf, middle].sort());
  });

  it('adding or removing a highlight makes what reads the answer stale in tag and only modes, not in full', () => {
    const { canvas, root, middle, leaf, versionId } = chain();
    const text = 'Key sentence here.';
    const start = 'Root answer. '.length;
    const highlight = { versionId, start, end: start + text.length, text };
    const refresh = () => {
      canvas.answer(middle, 'Middle answer, again.');
      canvas.answer(leaf, 'Leaf answer, again.');
      canvas.assertStale([]);
    };
    canvas.edit(root, { highlights: [highlight] });
    canvas.edit(root, { highlights: [] });
    canvas.assertStale([]);
    for (const mode of ['tag', 'only'] as const) {
      canvas.edit(root, { highlightMode: mode });
      refresh();
      canvas.edit(root, { highlights: [highlight] });
      canvas.assertStale([leaf, middle].sort());
      refresh();
      canvas.edit(root, { highlights: [] });
      canvas.assertStale([leaf, middle].sort());
      refresh();
    }
    canvas.edit(root, { highlightMode: 'full' });
    refresh();
    canvas.edit(root, { highlights: [highlight] });
    canvas.assertStale([]);
    canvas.edit(root, { highlights: [] });
    canvas.assertStale([]);
  });

  it('a model pin change makes nothing stale (the model is not context)', () => {
    const { canvas, root, middle, leaf } = chain();
    const before = [root, middle, leaf].map((id) => upstreamFingerprint(canvas.graph, id));
    canvas.edit(middle, { model: 'other/model' });
    canvas.edit(root, { model: 'another/model' });
    canvas.assertStale([]);
    expect([root, middle, leaf].map((id) => upstreamFingerprint(canvas.graph, id))).toEqual(before);
  });

  it('a role text edit under inherit makes nothing stale (an inheriting node ignores its own text)', () => {
    const { canvas, middle } = chain();
    canvas.edit(middle, { role: { mode: 'inherit', text: 'A draft role' } });
    canvas.assertStale([]);
    canvas.edit(middle, { role: { mode: 'inherit', text: 'Another draft' } });
    canvas.assertStale([]);
  });

  it('a passage is part of its question: downstream reads it; the branch itself is answered with it', () => {
    const { canvas, root, versionId } = chain();
    const text = 'Key sentence here.';
    const start = 'Root answer. '.length;
    canvas.apply({
      type: 'add-node',
      node: {
        kind: 'question',
        id: 'branch',
        question: 'Why?',
        passage: { sourceId: root, versionId, start, end: start + text.length, text },
      },
    });
    canvas.wire(root, 'branch');
    canvas.answer('branch', 'Because.');
    const below = canvas.addQuestion('Below?', { id: 'below' });
    canvas.wire('branch', below);
    canvas.answer(below, 'Below answer.');
    // Selecting another source version changes the branch's upstream (the source answer), not the passage.
    canvas.answer(root, 'Another root answer.');
    expect(canvas.staleIds()).toEqual(expect.arrayContaining(['branch', below]));
    expect(canvas.transcript(below)).toContain('[Regarding this passage: "Key sentence here."]');
  });

  it('adding a mention makes the node stale (its question and its upstream changed); removing it again clears both', () => {
    const { canvas, leaf } = chain();
    const aside = canvas.addQuestion('Aside?', { id: 'aside' });
    canvas.answer(aside, 'Aside answer.');
    const before = upstreamFingerprint(canvas.graph, leaf);
    canvas.edit(leaf, { question: `Leaf? ${mentionToken('Aside', aside)}` });
    expect(upstreamFingerprint(canvas.graph, leaf)).not.toBe(before);
    canvas.assertStale([leaf]);
    canvas.edit(leaf, { question: 'Leaf?' });
    expect(upstreamFingerprint(canvas.graph, leaf)).toBe(before);
    canvas.assertStale([]);
  });
  it('renaming a mentioned material makes the asker stale (the title is content); update-mention makes it stale again', () => {
    const { canvas, leaf } = chain();
    const source = canvas.addMaterial('Field notes', 'Silt settles slowly.', { type: 'pasted' }, 'notes');
    canvas.edit(leaf, { question: `Leaf? ${mentionToken('Field notes', source)}` });
    canvas.answer(leaf, 'Leaf answer with notes.');
    canvas.assertStale([]);
    canvas.edit(source, { title: 'Delta notes' });
    // The material's title travels with its content, so the rename itself already asks for a new answer.
    canvas.assertStale([leaf]);
    canvas.answer(leaf, 'Leaf answer after the rename.');
    canvas.assertStale([]);
    expect(canvas.transcript(leaf)).toContain('Leaf? @Field notes');
    canvas.apply({ type: 'update-mention', nodeId: leaf, mentionedId: source });
    expect(canvas.transcript(leaf)).toContain('Leaf? @Delta notes');
    canvas.assertStale([leaf]);
    expect(computeStaleFull(canvas.graph).stale).toEqual(canvas.tracker.stale);
  });
});
