import { describe, expect, it } from 'vitest';
import { LEGACY_APP_QUESTIONS, questionAuthor, type QuestionNode } from '../../protocol/index.ts';
import { CONCLUSION_QUESTION, SYNTHESIS_QUESTION, planCondense, planFanOut, planMerge } from './canvas-helpers.ts';
import { demoCanvas } from './demo-canvas.ts';
import { exchangeFromCanvas } from './memory/exchange-from-canvas.ts';
import { ruleSubQuestions } from './sub-questions.ts';
import { TestCanvas } from './test-canvas.ts';

const questionOf = (canvas: TestCanvas, id: string) => canvas.graph.nodes.get(id) as QuestionNode;
let counter = 0;
const newId = () => `made-${++counter}`;

/** C14: who wrote a question decides whether memory may take it as the person's words. */
describe('question authorship through applyChange', () => {
  it('records the person as the author of a question added without one', () => {
    const canvas = new TestCanvas();
    expect(questionOf(canvas, canvas.addQuestion('Why do I prefer tea?')).questionAuthor).toBe('person');
  });

  it('fan-out: a sub-question kept as the model proposed it is the model’s, one the person rewrote or added is theirs', () => {
    const canvas = new TestCanvas();
    const source = canvas.addQuestion('How do tides work?');
    const proposed = ['What is a tide?', 'What does the Moon do?'];
    const plan = planFanOut(
      canvas.graph,
      source,
      ['What is a tide?', 'What does the Moon do to me?', 'I live by the sea, does that matter?'],
      { newId },
      { questions: proposed, author: 'model' },
    );
    if (!('change' in plan)) throw plan;
    const made = canvas.apply(plan.change).created;
    expect(made.map((id) => questionOf(canvas, id).questionAuthor)).toEqual(['model', 'person', 'person']);
  });

  it('fan-out on the rule path writes Weft’s angles as Weft’s; without a proposal every line is the person’s', () => {
    const canvas = new TestCanvas();
    const source = canvas.addQuestion('Why is the sea salty?');
    const angles = ruleSubQuestions('Why is the sea salty?');
    const byRule = planFanOut(canvas.graph, source, angles, { newId }, { questions: angles, author: 'app' });
    const typed = planFanOut(canvas.graph, source, ['Where does salt come from?'], { newId });
    if (!('change' in byRule) || !('change' in typed)) throw new Error('refused');
    const made = [...canvas.apply(byRule.change).created, ...canvas.apply(typed.change).created];
    expect(made.map((id) => questionOf(canvas, id).questionAuthor)).toEqual(['app', 'app', 'app', 'app', 'person']);
  });

  it('merge and condense write their questions as Weft’s', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('One?');
    const second = canvas.addQuestion('Two?');
    canvas.wire(first, second);
    for (const plan of [
      planMerge(canvas.graph, [first, second], { newId }),
      planCondense(canvas.graph, [first, second], { newId }),
    ]) {
      if (!('change' in plan)) throw plan;
      const made = canvas.apply(plan.change).created[0]!;
      expect(questionOf(canvas, made).questionAuthor).toBe('app');
    }
  });

  it('makes a model’s question the person’s once they change its text, and it stays theirs', () => {
    const canvas = new TestCanvas();
    const id = canvas.apply({
      type: 'add-node',
      node: { kind: 'question', question: 'What is a tide?', questionAuthor: 'model' },
    }).created[0]!;
    canvas.edit(id, { model: 'other/model' });
    canvas.edit(id, { question: 'What is a tide?' });
    expect(questionOf(canvas, id).questionAuthor).toBe('model');
    canvas.edit(id, { question: 'What is a spring tide?' });
    expect(questionOf(canvas, id).questionAuthor).toBe('person');
    canvas.edit(id, { question: 'What is a tide?' });
    expect(questionOf(canvas, id).questionAuthor).toBe('person');
  });

  it('writes every demo question as Weft’s, and the legacy rule knows the texts Weft wrote before authors', () => {
    let count = 0;
    const document = demoCanvas(1_780_000_000_000, () => `demo-${++count}`);
    const questions = document.nodes.filter((node) => node.kind === 'question');
    expect(questions.length).toBeGreaterThan(0);
    for (const node of questions) {
      expect(node.questionAuthor).toBe('app');
      // The frozen texts the rule for older documents reads are the ones the app writes.
      expect(LEGACY_APP_QUESTIONS.has(node.question), node.question).toBe(true);
    }
    expect(LEGACY_APP_QUESTIONS.has(SYNTHESIS_QUESTION)).toBe(true);
    expect(LEGACY_APP_QUESTIONS.has(CONCLUSION_QUESTION)).toBe(true);
    for (const angle of ruleSubQuestions('Why is the sea salty?'))
      expect(questionAuthor({ question: angle }), angle).toBe('app');
  });
});

describe('the version freezes who wrote the question it asked', () => {
  it('a model’s sub-question asked as proposed is context; after the person rewrites and asks it, their words', () => {
    const canvas = new TestCanvas();
    const id = canvas.apply({
      type: 'add-node',
      node: { kind: 'question', question: 'I prefer tabs, do you?', questionAuthor: 'model' },
    }).created[0]!;
    const asked = canvas.answer(id, 'Spaces.');
    canvas.edit(id, { question: 'I prefer tabs over spaces, do you?' });
    const again = canvas.answer(id, 'Still spaces.');
    const versions = questionOf(canvas, id).versions;
    expect(versions.map((version) => version.questionAuthor)).toEqual(['model', 'person']);

    const exchange = (versionId: string) => {
      const version = versions.find((each) => each.id === versionId)!;
      const claim = { canvasId: canvas.graph.canvas.id, nodeId: id, versionId, commitHash: version.requestHash! };
      const found = exchangeFromCanvas(canvas.graph, claim, {
        at: 1,
        memoryBlock: null,
        recorded: [canvas.recordedCommit(id, versionId)],
      });
      if (!found.ok) throw new Error(found.error.message);
      return found.value;
    };
    // The first version stays the model's although the node is the person's now.
    expect(exchange(asked).person).toEqual([]);
    expect(exchange(asked).other).toContainEqual({ kind: 'app-question', text: 'I prefer tabs, do you?' });
    expect(exchange(again).person).toEqual([
      { kind: 'question', text: 'I prefer tabs over spaces, do you?', nodeId: id },
    ]);
  });
});
