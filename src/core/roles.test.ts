import { describe, expect, it } from 'vitest';
import { buildRequest } from './build-request.ts';
import { resolveRole } from './resolve-role.ts';
import { TestCanvas } from './test-canvas.ts';

function golden(canvas: TestCanvas, nodeId: string): string {
  const compiled = canvas.compiled(nodeId);
  const { messages, sources, tokens, role, roleConflict } = compiled;
  return `${JSON.stringify({ messages, sources, tokens, role, roleConflict }, null, 2)}\n`;
}

describe('roles (C29)', () => {
  it('a role set on a node is the first message of its request and of every request below it', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('Root?', { id: 'root' });
    canvas.edit(root, { role: { mode: 'set', text: 'You are a careful historian.' } });
    canvas.answer(root, 'Root answer.');
    const child = canvas.addQuestion('Child?', { id: 'child' });
    canvas.wire(root, child);
    expect(canvas.transcript(root)).toBe('--- system\nYou are a careful historian.\n--- user\nRoot?');
    expect(canvas.transcript(child)).toBe(
      '--- system\nYou are a careful historian.\n--- user\nRoot?\n--- assistant\nRoot answer.\n--- user\nChild?',
    );
    const compiled = canvas.compiled(child);
    expect(compiled.role).toEqual({ text: 'You are a careful historian.', sourceId: 'root' });
    expect(compiled.sources[0]).toMatchObject({ nodeId: 'root', layer: 'role', part: 'role', partId: 'root:role' });
    // The request keeps it first, before memory and recall blocks.
    const built = buildRequest(compiled, { model: 'm', memoryBlock: '[Memory]\nx' });
    expect(built.request.messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'You are a careful historian.' }],
    });
  });

  it('“set” on a lower node replaces the inherited role for it and what follows; “reset” sends none from there', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('Root?', { id: 'root' });
    canvas.edit(root, { role: { mode: 'set', text: 'Role A' } });
    const middle = canvas.addQuestion('Middle?', { id: 'middle' });
    canvas.wire(root, middle);
    canvas.edit(middle, { role: { mode: 'set', text: 'Role B' } });
    const below = canvas.addQuestion('Below?', { id: 'below' });
    canvas.wire(middle, below);
    expect(canvas.compiled(below).role).toEqual({ text: 'Role B', sourceId: 'middle' });
    canvas.edit(middle, { role: { mode: 'reset', text: 'Role B' } });
    expect(canvas.compiled(middle).role).toBeNull();
    expect(canvas.compiled(below).role).toBeNull();
    expect(canvas.transcript(below).startsWith('--- user\nRoot?')).toBe(true);
    canvas.edit(middle, { role: { mode: 'inherit', text: '' } });
    expect(canvas.compiled(below).role).toEqual({ text: 'Role A', sourceId: 'root' });
  });

  it('roles pass through notes and archived nodes, never along dashed wires', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('Root?', { id: 'root' });
    canvas.edit(root, { role: { mode: 'set', text: 'Role A' } });
    const note = canvas.addNote('a note', 'note');
    canvas.wire(root, note);
    const archived = canvas.addQuestion('Archived?', { id: 'gone' });
    canvas.wire(note, archived);
    canvas.archive(archived);
    const leaf = canvas.addQuestion('Leaf?', { id: 'leaf' });
    canvas.wire(archived, leaf);
    expect(canvas.compiled(leaf).role).toEqual({ text: 'Role A', sourceId: 'root' });
    const referencing = canvas.addQuestion('Referencing?', { id: 'ref' });
    canvas.wire(root, referencing, 'quote');
    expect(canvas.compiled(referencing).role).toBeNull();
  });

  it('two parents with different roles make a conflict the node must settle by an explicit pick', () => {
    const canvas = new TestCanvas();
    const left = canvas.addQuestion('Left?', { id: 'left' });
    canvas.edit(left, { role: { mode: 'set', text: 'Role L' } });
    canvas.answer(left, 'Left answer.');
    const right = canvas.addQuestion('Right?', { id: 'right' });
    canvas.edit(right, { role: { mode: 'set', text: 'Role R' } });
    canvas.answer(right, 'Right answer.');
    const join = canvas.addQuestion('Join?', { id: 'join' });
    canvas.wire(left, join);
    canvas.wire(right, join);
    const below = canvas.addQuestion('Below?', { id: 'below' });
    canvas.wire(join, below);
    const conflict = canvas.compiled(join);
    expect(conflict.role).toBeNull();
    expect(conflict.roleConflict).toEqual([
      { text: 'Role L', sourceId: 'left' },
      { text: 'Role R', sourceId: 'right' },
    ]);
    expect(conflict.messages.every((message) => message.role !== 'system')).toBe(true);
    // Unsettled above, unsettled below.
    expect(canvas.compiled(below).roleConflict).toHaveLength(2);
    canvas.edit(join, { rolePick: 'right' });
    expect(canvas.compiled(join).role).toEqual({ text: 'Role R', sourceId: 'right' });
    expect(canvas.compiled(below).role).toEqual({ text: 'Role R', sourceId: 'right' });
    // A pick that names no candidate settles nothing.
    canvas.edit(join, { rolePick: 'below' });
    expect(canvas.compiled(join).roleConflict).toHaveLength(2);
  });

  it('parents that pass the same role, or one passing none, are no conflict', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('Root?', { id: 'root' });
    canvas.edit(root, { role: { mode: 'set', text: 'Role A' } });
    const left = canvas.addQuestion('Left?', { id: 'left' });
    const right = canvas.addQuestion('Right?', { id: 'right' });
    canvas.wire(root, left);
    canvas.wire(root, right);
    const plain = canvas.addQuestion('Plain?', { id: 'plain' });
    const join = canvas.addQuestion('Join?', { id: 'join' });
    canvas.wire(left, join);
    canvas.wire(right, join);
    canvas.wire(plain, join);
    expect(resolveRole(canvas.graph, join)).toEqual({ kind: 'role', role: { text: 'Role A', sourceId: 'root' } });
  });

  it('the role is frozen on each version', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('Root?', { id: 'root' });
    canvas.edit(root, { role: { mode: 'set', text: 'Role A' } });
    canvas.answer(root, 'First.');
    canvas.edit(root, { role: { mode: 'set', text: 'Role B' } });
    canvas.answer(root, 'Second.');
    const node = canvas.graph.nodes.get(root);
    if (node?.kind !== 'question') throw new Error('expected a question');
    expect(node.versions.map((version) => version.role)).toEqual([
      { text: 'Role A', sourceId: 'root' },
      { text: 'Role B', sourceId: 'root' },
    ]);
    // The document still loads (the field is optional and validated).
    expect(() => canvas.document()).not.toThrow();
  });

  it('deleting the node a role pick names clears the pick, so no question points at a node that is gone', () => {
    const canvas = new TestCanvas();
    const left = canvas.addQuestion('L?', { id: 'left' });
    canvas.edit(left, { role: { mode: 'set', text: 'Role L' } });
    const right = canvas.addQuestion('R?', { id: 'right' });
    canvas.edit(right, { role: { mode: 'set', text: 'Role R' } });
    const join = canvas.addQuestion('J?', { id: 'join' });
    canvas.wire(left, join);
    canvas.wire(right, join);
    canvas.edit(join, { rolePick: left });
    canvas.apply({ type: 'delete-node', nodeId: right });
    expect(canvas.graph.nodes.get(join)).toMatchObject({ rolePick: left });
    canvas.apply({ type: 'delete-node', nodeId: left });
    expect(canvas.graph.nodes.get(join)).toMatchObject({ rolePick: null });
    expect(() => canvas.document()).not.toThrow();
  });

  it('golden: a role set above a diamond, picked at the join', async () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('What shaped the treaty?', { id: 'root' });
    canvas.edit(root, { role: { mode: 'set', text: 'You are a diplomatic historian. Cite dates.' } });
    canvas.answer(root, 'Three wars and a famine.');
    const economist = canvas.addQuestion('What did it cost?', { id: 'economist' });
    canvas.wire(root, economist);
    canvas.edit(economist, { role: { mode: 'set', text: 'You are an economist.' } });
    canvas.answer(economist, 'About a tenth of output.');
    const lawyer = canvas.addQuestion('Was it binding?', { id: 'lawyer' });
    canvas.wire(root, lawyer);
    canvas.answer(lawyer, 'Yes, by ratification.');
    const join = canvas.addQuestion('Was it worth it?', { id: 'join' });
    canvas.wire(economist, join);
    canvas.wire(lawyer, join);
    canvas.edit(join, { rolePick: 'economist' });
    await expect(golden(canvas, join)).toMatchFileSnapshot('./__golden__/role-picked-diamond.json');
  });
});
