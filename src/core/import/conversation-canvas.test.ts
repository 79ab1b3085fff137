import { describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../../protocol/index.ts';
import { computeStaleFull } from '../stale-tracker.ts';
import { graphFromDocument } from '../graph.ts';
import { conversationCanvas } from './conversation-canvas.ts';
import type { ImportedConversation, ImportedMessage } from './imported-conversation.ts';

const message = (id: string, parentId: string | null, role: 'user' | 'assistant', at: number): ImportedMessage => ({
  id,
  parentId,
  role,
  text: `text of ${id}`,
  at,
  model: role === 'assistant' ? 'model-x' : null,
  attachments: [],
});

function build(messages: ImportedMessage[], currentLeafId: string) {
  const conversation: ImportedConversation = {
    source: 'chatgpt',
    id: 'c1',
    title: 'T',
    createdAt: 1000,
    messages,
    currentLeafId,
    skipped: 0,
    defaultModel: 'chatgpt',
  };
  let counter = 0;
  const { document, counts } = conversationCanvas(conversation, {
    now: 5000,
    newId: () => `id${(counter += 1)}`,
    importId: 'i',
  });
  const questions = document.nodes.filter((node): node is QuestionNode => node.kind === 'question');
  return { document, counts, questions };
}

describe('conversationCanvas', () => {
  it('gives a regeneration the conversation went on from, but is not current, its own node beside the first', () => {
    // u1 → a1 (went on: u2 → a2) and a1b (regenerated, went on: u3 → a3, the current branch).
    const { document, questions, counts } = build(
      [
        message('u1', null, 'user', 1),
        message('a1', 'u1', 'assistant', 2),
        message('u2', 'a1', 'user', 3),
        message('a2', 'u2', 'assistant', 4),
        message('a1b', 'u1', 'assistant', 5),
        message('u3', 'a1b', 'user', 6),
        message('a3', 'u3', 'assistant', 7),
      ],
      'a3',
    );
    const firsts = questions.filter((node) => node.question === 'text of u1');
    expect(firsts).toHaveLength(2);
    const [main, branch] = firsts;
    expect(main!.versions.map((version) => version.text)).toEqual(['text of a1b']);
    expect(branch!.versions.map((version) => version.text)).toEqual(['text of a1']);
    const parentOf = (text: string) => {
      const node = questions.find((candidate) => candidate.question === text)!;
      return document.wires.find((wire) => wire.to === node.id)!.from;
    };
    // Each follow-up hangs below the reply it actually followed.
    expect(parentOf('text of u3')).toBe(main!.id);
    expect(parentOf('text of u2')).toBe(branch!.id);
    expect(counts).toMatchObject({ questions: 4, versions: 4 });
    // C14: an exported conversation's user messages are what the person typed: their words.
    expect(questions.map((node) => node.questionAuthor)).toEqual(['person', 'person', 'person', 'person']);
    expect(computeStaleFull(graphFromDocument(document)).stale.size).toBe(0);
  });

  it('folds a tool loop of assistant messages into one reply and keeps a question without a reply', () => {
    const { questions } = build(
      [
        message('u1', null, 'user', 1),
        message('a1', 'u1', 'assistant', 2),
        message('a1-more', 'a1', 'assistant', 3),
        message('u2', 'a1-more', 'user', 4),
      ],
      'u2',
    );
    expect(questions[0]!.versions.map((version) => version.text)).toEqual(['text of a1\n\ntext of a1-more']);
    expect(questions[1]!.versions).toEqual([]);
  });

  it('gives each imported answer the rule plaque, so map mode shows its gist, and marks nothing stale', () => {
    const { questions, document } = build(
      [message('u1', null, 'user', 1), message('a1', 'u1', 'assistant', 2), message('a1b', 'u1', 'assistant', 5)],
      'a1b',
    );
    const versions = questions.flatMap((node) => node.versions);
    expect(versions).toHaveLength(2);
    for (const version of versions) {
      expect(version.plaque).toMatchObject({
        source: 'rule',
        model: null,
        takeaway: version.text,
        abstract: [version.text],
        writtenAt: version.createdAt,
      });
    }
    expect(computeStaleFull(graphFromDocument(document)).stale.size).toBe(0);
  });
});
