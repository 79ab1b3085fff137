import { describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../protocol/index.ts';
import { askedQuestion } from './asked-question.ts';
import { mentionToken } from './mention-text.ts';
import { TestCanvas } from './test-canvas.ts';

/** The commit ledger hashes what compile sends as the question; memory hashes a stored version's question alike. */
describe('askedQuestion', () => {
  it('is the text compile sends last, passage line and mentions included', () => {
    const canvas = new TestCanvas();
    const source = canvas.addNote('Tides follow the moon.');
    const id = canvas.apply({
      type: 'add-node',
      node: {
        kind: 'question',
        question: `Why does ${mentionToken('Tides', source)} say so?`,
        passage: { sourceId: source, versionId: null, start: 0, end: 5, text: 'Tides' },
      },
    }).created[0]!;
    const node = canvas.graph.nodes.get(id) as QuestionNode;
    const last = canvas.compiled(id).messages.at(-1)!;
    const sent = last.content.find((part) => part.type === 'text');
    expect(sent).toEqual({ type: 'text', text: askedQuestion(node, node.question) });
    expect(askedQuestion(node, node.question)).toBe('[Regarding this passage: "Tides"]\n\nWhy does @Tides say so?');
    expect(askedQuestion({}, 'Plain.')).toBe('Plain.');
  });
});
