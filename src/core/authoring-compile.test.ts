import { describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../protocol/index.ts';
import { passageStatus } from './passage-status.ts';
import { mentionToken } from './mention-text.ts';
import { TestCanvas } from './test-canvas.ts';

function golden(canvas: TestCanvas, nodeId: string): string {
  const { messages, sources, tokens } = canvas.compiled(nodeId);
  return `${JSON.stringify({ messages, sources, tokens }, null, 2)}\n`;
}

function question(canvas: TestCanvas, nodeId: string): QuestionNode {
  const node = canvas.graph.nodes.get(nodeId);
  if (node?.kind !== 'question') throw new Error(`${nodeId} is not a question`);
  return node;
}

const ANSWER = 'Rivers carry silt. Deltas form where the current slows. Mangroves hold the mud.';

function passageCanvas() {
  const canvas = new TestCanvas();
  const source = canvas.addQuestion('How do deltas form?', { id: 'source' });
  const versionId = canvas.answer(source, ANSWER);
  const start = ANSWER.indexOf('Deltas form');
  const text = 'Deltas form where the current slows.';
  canvas.apply({
    type: 'add-node',
    node: {
      kind: 'question',
      id: 'branch',
      question: 'Why does it slow?',
      passage: { sourceId: source, versionId, start, end: start + text.length, text },
    },
  });
  canvas.wire(source, 'branch');
  return { canvas, source, versionId, text };
}

describe('branch from a passage (C30)', () => {
  it('the compiled question carries the passage line before the question, and so does every use of it below', async () => {
    const { canvas } = passageCanvas();
    expect(canvas.transcript('branch')).toBe(
      `--- user\nHow do deltas form?\n--- assistant\n${ANSWER}\n--- user\n[Regarding this passage: "Deltas form where the current slows."]\n\nWhy does it slow?`,
    );
    canvas.answer('branch', 'Because the sea is flat.');
    const below = canvas.addQuestion('And then?', { id: 'below' });
    canvas.wire('branch', below);
    expect(canvas.transcript(below)).toContain('[Regarding this passage: "Deltas form where the current slows."]');
    await expect(golden(canvas, 'branch')).toMatchFileSnapshot('./__golden__/passage-branch.json');
  });

  it('the passage survives a version switch and is marked when it no longer occurs', () => {
    const { canvas, source, versionId } = passageCanvas();
    expect(passageStatus(canvas.graph, question(canvas, 'branch'))).toBe('at');
    const second = canvas.answer(source, 'A different answer entirely.');
    expect(passageStatus(canvas.graph, question(canvas, 'branch'))).toBe('missing');
    // The compiled question keeps the stored passage whatever the source shows now.
    expect(canvas.transcript('branch')).toContain('[Regarding this passage: "Deltas form where the current slows."]');
    canvas.answer(source, `Preface. ${ANSWER}`);
    expect(passageStatus(canvas.graph, question(canvas, 'branch'))).toBe('moved');
    canvas.apply({ type: 'select-version', nodeId: source, versionId });
    expect(passageStatus(canvas.graph, question(canvas, 'branch'))).toBe('at');
    canvas.apply({ type: 'select-version', nodeId: source, versionId: second });
    expect(passageStatus(canvas.graph, question(canvas, 'branch'))).toBe('missing');
    canvas.delete(source);
    expect(passageStatus(canvas.graph, question(canvas, 'branch'))).toBe('missing');
  });

  it('a passage that fails the schema is refused and nothing is stored', () => {
    const canvas = new TestCanvas();
    const result = canvas.tryApply({
      type: 'add-node',
      node: {
        kind: 'question',
        question: 'q',
        passage: { sourceId: 's', versionId: null, start: 0, end: 0, text: '' },
      },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('invalid');
    expect(canvas.graph.nodes.size).toBe(0);
  });
});

describe('highlights and their downstream modes (C33)', () => {
  function highlighted(mode: 'full' | 'tag' | 'only') {
    const canvas = new TestCanvas();
    const source = canvas.addQuestion('How do deltas form?', { id: 'source' });
    const versionId = canvas.answer(source, ANSWER);
    const spans = ['Rivers carry silt.', 'Mangroves hold the mud.'].map((text) => {
      const start = ANSWER.indexOf(text);
      return { versionId, start, end: start + text.length, text };
    });
    canvas.edit(source, { highlights: spans, highlightMode: mode });
    const child = canvas.addQuestion('So what?', { id: 'child' });
    canvas.wire(source, child);
    return { canvas, source, child, versionId };
  }

  it('full text: the answer as written', () => {
    const { canvas, child } = highlighted('full');
    expect(canvas.transcript(child)).toContain(`--- assistant\n${ANSWER}\n`);
  });

  it('tag important: each highlighted span wrapped in [Important]…[/Important]', async () => {
    const { canvas, child } = highlighted('tag');
    expect(canvas.transcript(child)).toContain(
      '--- assistant\n[Important]Rivers carry silt.[/Important] Deltas form where the current slows. [Important]Mangroves hold the mud.[/Important]\n',
    );
    await expect(golden(canvas, child)).toMatchFileSnapshot('./__golden__/highlights-tag.json');
  });

  it('highlights only: the spans, one quoted line each, in answer order', async () => {
    const { canvas, child } = highlighted('only');
    expect(canvas.transcript(child)).toContain(
      '--- assistant\n[Highlights of this answer]\n- "Rivers carry silt."\n- "Mangroves hold the mud."\n',
    );
    await expect(golden(canvas, child)).toMatchFileSnapshot('./__golden__/highlights-only.json');
  });

  it('the mode applies inside reference blocks too, and only the current version’s highlights count', () => {
    const { canvas, source } = highlighted('only');
    const referencing = canvas.addQuestion('Referencing?', { id: 'ref' });
    canvas.wire(source, referencing, 'quote');
    expect(canvas.transcript(referencing)).toContain('Answer: [Highlights of this answer]\n- "Rivers carry silt."');
    canvas.answer(source, 'A new answer with no highlights.');
    expect(canvas.transcript(referencing)).toContain('Answer: A new answer with no highlights.');
  });

  it('a highlight whose offsets no longer hold its text is skipped, not guessed at', () => {
    const { canvas, source, child, versionId } = highlighted('only');
    canvas.edit(source, { highlights: [{ versionId, start: 0, end: 6, text: 'Deltas' }] });
    expect(canvas.transcript(child)).toContain(`--- assistant\n${ANSWER}\n`);
  });
});

describe('@-mentions are dashed reference wires (C31)', () => {
  function mentionCanvas() {
    const canvas = new TestCanvas();
    const cited = canvas.addQuestion('What is silt?', { id: 'cited' });
    canvas.answer(cited, 'Fine sediment.');
    const asker = canvas.addQuestion('Plain question.', { id: 'asker' });
    return { canvas, cited, asker };
  }
  const mentionWires = (canvas: TestCanvas) =>
    [...canvas.graph.wires.values()].filter((wire) => wire.kind === 'dashed' && wire.mention);

  it('typing a mention adds a dashed quote wire; the compiled question reads @Title and the reference arrives', async () => {
    const { canvas, cited, asker } = mentionCanvas();
    canvas.edit(asker, { question: `How does ${mentionToken('What is silt?', cited)} settle?` });
    expect(mentionWires(canvas)).toEqual([
      expect.objectContaining({ from: cited, to: asker, depth: 'quote', mention: true }),
    ]);
    expect(canvas.transcript(asker)).toContain('--- user\nHow does @What is silt? settle?');
    expect(canvas.transcript(asker)).toContain('Question: What is silt?\nAnswer: Fine sediment.');
    expect(canvas.eventOps().slice(-2)).toEqual(['edit', 'wire']);
    await expect(golden(canvas, asker)).toMatchFileSnapshot('./__golden__/mention-reference.json');
  });

  it('deleting the mention from the text removes its wire', () => {
    const { canvas, cited, asker } = mentionCanvas();
    canvas.edit(asker, { question: `About ${mentionToken('silt', cited)}?` });
    canvas.edit(asker, { question: 'About nothing?' });
    expect(mentionWires(canvas)).toEqual([]);
    expect(canvas.eventOps().slice(-2)).toEqual(['edit', 'unwire']);
  });

  it('removing the wire removes the mention from the text', () => {
    const { canvas, cited, asker } = mentionCanvas();
    canvas.edit(asker, { question: `About ${mentionToken('silt', cited)} now?` });
    canvas.unwire(cited, asker);
    expect(question(canvas, asker).question).toBe('About now?');
    expect(canvas.eventOps().slice(-2)).toEqual(['unwire', 'edit']);
  });

  it('deleting the mentioned node takes the mention out of the text, so the question stays editable', () => {
    const { canvas, cited, asker } = mentionCanvas();
    canvas.edit(asker, { question: `About ${mentionToken('silt', cited)} now?` });
    canvas.delete(cited);
    expect(question(canvas, asker).question).toBe('About now?');
    expect(mentionWires(canvas)).toEqual([]);
    // Before the fix the dangling token made every later edit fail ("no node cited on this canvas").
    expect(canvas.tryApply({ type: 'edit-node', nodeId: asker, patch: { question: 'About sand now?' } }).ok).toBe(true);
  });

  it('a node already wired in serves the mention, and removing the mention leaves that wire alone', () => {
    const { canvas, cited, asker } = mentionCanvas();
    canvas.wire(cited, asker);
    canvas.edit(asker, { question: `About ${mentionToken('silt', cited)}?` });
    canvas.edit(asker, { question: 'About?' });
    expect([...canvas.graph.wires.values()]).toEqual([expect.objectContaining({ kind: 'solid', from: cited })]);
  });

  it('a rename leaves the mention (and the compiled question) as written until update-mention rewrites it', () => {
    const { canvas, cited, asker } = mentionCanvas();
    canvas.edit(asker, { question: `How does ${mentionToken('What is silt?', cited)} settle?` });
    canvas.edit(cited, { question: 'What is loess?' });
    expect(canvas.transcript(asker)).toContain('--- user\nHow does @What is silt? settle?');
    canvas.apply({ type: 'update-mention', nodeId: asker, mentionedId: cited });
    expect(question(canvas, asker).question).toBe(`How does ${mentionToken('What is loess?', cited)} settle?`);
    expect(canvas.transcript(asker)).toContain('--- user\nHow does @What is loess? settle?');
    expect(mentionWires(canvas)).toEqual([expect.objectContaining({ from: cited, to: asker, mention: true })]);
    expect(canvas.eventOps().at(-1)).toBe('edit');
    const events = canvas.graph.events.length;
    canvas.apply({ type: 'update-mention', nodeId: asker, mentionedId: cited });
    expect(canvas.graph.events.length).toBe(events);
  });

  it('update-mention of a node the question does not mention is refused and the text stays', () => {
    const { canvas, cited, asker } = mentionCanvas();
    const result = canvas.tryApply({ type: 'update-mention', nodeId: asker, mentionedId: cited });
    expect(result.ok || result.error.code).toBe('invalid');
    expect(question(canvas, asker).question).toBe('Plain question.');
  });

  it('a mention of a missing node, of itself or one closing a loop is refused and the text stays', () => {
    const { canvas, cited, asker } = mentionCanvas();
    const below = canvas.addQuestion('Below?', { id: 'below' });
    canvas.wire(asker, below);
    for (const [target, id] of [
      [asker, 'nowhere'],
      [asker, asker],
      [asker, below],
    ] as const) {
      const result = canvas.tryApply({
        type: 'edit-node',
        nodeId: target,
        patch: { question: `x ${mentionToken('t', id)}` },
      });
      expect(result.ok).toBe(false);
    }
    expect(question(canvas, asker).question).toBe('Plain question.');
    expect(question(canvas, cited).question).toBe('What is silt?');
    expect(canvas.graph.wires.size).toBe(1);
  });
});
