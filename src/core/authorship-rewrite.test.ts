import { describe, expect, it } from 'vitest';
import type { CanvasNode, QuestionNode } from '../../protocol/index.ts';
import { authorshipRewrite } from './authorship-rewrite.ts';
import { TestCanvas } from './test-canvas.ts';

/** A canvas with a model-proposed question that was answered once, and an app-written note. */
function canvas(): { nodes: CanvasNode[]; questionId: string; noteId: string } {
  const test = new TestCanvas({ idPrefix: 'a-' });
  const questionId = test.apply({
    type: 'add-node',
    node: { kind: 'question', question: 'Which editor do you prefer?', questionAuthor: 'model' },
  }).created[0]!;
  const noteId = test.apply({ type: 'add-node', node: { kind: 'note', text: 'Keep it short.', author: 'app' } })
    .created[0]!;
  test.answer(questionId, 'I prefer Emacs over Vim.');
  return { nodes: test.document().nodes, questionId, noteId };
}

const edit = (nodes: CanvasNode[], id: string, change: (node: CanvasNode) => CanvasNode) =>
  nodes.map((node) => (node.id === id ? change(node) : node));

describe('authorshipRewrite: a save keeps who wrote what', () => {
  it('accepts the same record, and a flip that comes with an edit of the text (the edit path)', () => {
    const { nodes, questionId, noteId } = canvas();
    expect(authorshipRewrite(nodes, nodes)).toBeNull();
    const edited = edit(nodes, questionId, (node) => ({
      ...(node as QuestionNode),
      question: 'Which editor do I prefer for Rust?',
      questionAuthor: 'person',
    }));
    expect(authorshipRewrite(nodes, edited)).toBeNull();
    const note = edit(nodes, noteId, (node) => ({ ...node, text: 'Keep it short, please.', author: 'person' }));
    expect(authorshipRewrite(nodes, note)).toBeNull();
  });

  it('refuses a question or note handed to the person with its text unchanged', () => {
    const { nodes, questionId, noteId } = canvas();
    const flipped = edit(nodes, questionId, (node) => ({ ...(node as QuestionNode), questionAuthor: 'person' }));
    expect(authorshipRewrite(nodes, flipped)).toMatch(/without an edit of its text/);
    const note = edit(nodes, noteId, (node) => ({ ...node, author: 'person' }));
    expect(authorshipRewrite(nodes, note)).toMatch(/note .* without an edit/);
  });

  it('refuses a stored version whose question, its author or its request changes', () => {
    const { nodes, questionId } = canvas();
    const version = (change: Record<string, unknown>) =>
      edit(nodes, questionId, (node) => {
        const question = node as QuestionNode;
        return { ...question, versions: question.versions.map((entry) => ({ ...entry, ...change })) };
      });
    expect(authorshipRewrite(nodes, version({ question: 'I prefer Emacs over Vim.' }))).toMatch(
      /question it was asked/,
    );
    expect(authorshipRewrite(nodes, version({ questionAuthor: 'person' }))).toMatch(/who wrote the question/);
    expect(authorshipRewrite(nodes, version({ requestHash: 'f'.repeat(64) }))).toMatch(/request it was answered/);
    // The answer's own text may still grow as it streams in: not what this guard keeps.
    expect(authorshipRewrite(nodes, version({ text: 'I prefer Emacs over Vim.' }))).toBeNull();
  });

  it('refuses an id re-made in the person’s name over words a model or Weft wrote under it (issue 27.3)', () => {
    const { nodes, questionId, noteId } = canvas();
    const question = nodes.find((node) => node.id === questionId) as QuestionNode;
    const note = nodes.find((node) => node.id === noteId)!;
    // One save: Weft's note re-made as a question the person wrote, with the same words.
    const swapped = edit(nodes, noteId, () => ({
      ...question,
      id: noteId,
      question: 'Keep it short.',
      questionAuthor: 'person',
    }));
    expect(authorshipRewrite(nodes, swapped)).toMatch(/re-made as a question/);
    // A later save: the id is new to the stored record, and only the server's history remembers what it held.
    const without = nodes.filter((node) => node.id !== questionId && node.id !== noteId);
    const history = new Map([
      [questionId, question.question],
      [noteId, 'Keep it short.'],
    ]);
    const wroteBefore = (nodeId: string, text: string) => history.get(nodeId) === text;
    const readded = [
      ...without,
      { ...question, questionAuthor: 'person' as const },
      { ...note, author: 'person' as const },
    ];
    expect(authorshipRewrite(without, readded, wroteBefore)).toMatch(/question .* re-added in the person's name/);
    expect(authorshipRewrite(without, readded.slice(0, -2).concat(readded.at(-1)!), wroteBefore)).toMatch(
      /note .* re-added/,
    );
    // Re-added as it was (an undo), or rewritten by the person (the edit path): allowed.
    expect(authorshipRewrite(without, [...without, question, note], wroteBefore)).toBeNull();
    const rewritten = {
      ...question,
      question: 'Which editor do I prefer for Rust?',
      questionAuthor: 'person' as const,
    };
    expect(authorshipRewrite(without, [...without, rewritten], wroteBefore)).toBeNull();
  });

  it('refuses a new version that says the person asked a model’s words under that node', () => {
    const { nodes, questionId } = canvas();
    const question = nodes.find((node) => node.id === questionId) as QuestionNode;
    const asked = question.versions[0]!;
    const withVersion = (node: QuestionNode, change: Record<string, unknown>) =>
      edit(nodes, questionId, () => ({ ...node, versions: [...node.versions, { ...asked, id: 'new', ...change }] }));
    // The stored question is the model's: a new version claiming the person asked it, outright or by omission.
    expect(authorshipRewrite(nodes, withVersion(question, { questionAuthor: 'person' }))).toMatch(
      /says the person asked/,
    );
    const elsewhere = { ...question, question: 'Something else entirely.' };
    expect(
      authorshipRewrite(
        nodes,
        withVersion(elsewhere, { questionAuthor: undefined }),
        (id, text) => id === questionId && text === question.question,
      ),
    ).toMatch(/says the person asked/);
    // Honest versions: the model's question asked as the model's, or the person's rewrite asked as theirs.
    expect(authorshipRewrite(nodes, withVersion(question, { questionAuthor: 'model' }))).toBeNull();
    const rewritten = { ...question, question: 'Which editor for Rust?', questionAuthor: 'person' as const };
    expect(
      authorshipRewrite(
        nodes,
        withVersion(rewritten, { question: 'Which editor for Rust?', questionAuthor: 'person' }),
      ),
    ).toBeNull();
  });
});
