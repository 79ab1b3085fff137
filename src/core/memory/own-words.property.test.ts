import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { QuestionAuthor } from '../../../protocol/index.ts';
import { TestCanvas } from '../test-canvas.ts';
import { admitFact } from './admit-fact.ts';
import type { CandidateFact } from './candidate-fact.ts';
import { exchangeFromCanvas } from './exchange-from-canvas.ts';
import type { FactCategory } from './first-person.ts';
import { candidateFromJudgement, judgedSentences } from './judge-decisions.ts';
import { normaliseText, words } from './normalise-text.ts';
import { emptyProfile } from './profile.ts';
import { ruleDecide } from './rule-decide.ts';

/**
 * C14 "only the person's own words become facts", over random canvases: the person's question and notes use one
 * vocabulary, the model's answer, the notes Weft wrote and a question a model proposed (a fan-out sub-question
 * asked as proposed) or Weft wrote another, both full of first-person statements. Whatever
 * the rule path, a judge answering anything, or a hostile proposer offers, every admitted fact rests on a span that
 * occurs verbatim in what the person wrote, and no admitted span carries a word only the assistant text has.
 */
const PERSON_WORDS = ['tabs', 'tea', 'chess', 'metric', 'kotlin', 'leeds', 'hiking', 'jazz', 'bread', 'linux'];
const OTHER_WORDS = ['emacs', 'coffee', 'paris', 'rust', 'opera', 'golf', 'mozilla', 'sushi', 'windows', 'oslo'];
const OPENINGS = ['I prefer', 'I like', 'I love', 'I always use', 'I work at', 'I live in', 'My name is', 'I enjoy'];

const sentence = (pool: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...OPENINGS), fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 4 }))
    .map(([opening, chosen]) => `${opening} ${chosen.join(' and ')}.`);
const text = (pool: readonly string[]) =>
  fc
    .array(fc.oneof(sentence(pool), fc.constantFrom('What do you think?', 'Explain it briefly.')), {
      minLength: 1,
      maxLength: 4,
    })
    .map((sentences) => sentences.join(' '));

const world = fc.record({
  questionBy: fc.constantFrom<QuestionAuthor>('person', 'person', 'model', 'app'),
  personQuestion: text(PERSON_WORDS),
  otherQuestion: text(OTHER_WORDS),
  personNotes: fc.array(text(PERSON_WORDS), { maxLength: 2 }),
  appNotes: fc.array(text(OTHER_WORDS), { maxLength: 2 }),
  answer: text(OTHER_WORDS),
});

/** A proposer that may say anything: a span cut from any text of the canvas (or across two), any wording, any label. */
const hostile = fc.record({
  source: fc.nat(),
  start: fc.nat(),
  length: fc.integer({ min: 1, max: 80 }),
  join: fc.boolean(),
  textFromSpan: fc.boolean(),
  stated: fc.boolean(),
  category: fc.constantFrom<FactCategory>('preference', 'identity', 'project'),
});

/** What the judge might answer about a sentence, cut-offs included. */
const judgement = fc.record({
  durable: fc.double({ min: 0, max: 1, noNaN: true }),
  preference: fc.double({ min: 0, max: 1, noNaN: true }),
  identity: fc.double({ min: 0, max: 1, noNaN: true }),
  stated: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('own words over random canvases (exchangeFromCanvas → proposer → constitution)', () => {
  it('admits only spans that occur verbatim in the person’s question or their own notes', () => {
    let admitted = 0;
    fc.assert(
      fc.property(
        world,
        fc.array(hostile, { maxLength: 6 }),
        fc.array(judgement, { minLength: 8, maxLength: 8 }),
        (setup, attacks, judgements) => {
          const canvas = new TestCanvas();
          const byPerson = setup.questionBy === 'person';
          const asked = byPerson ? setup.personQuestion : setup.otherQuestion;
          const question = canvas.apply({
            type: 'add-node',
            node: { kind: 'question', question: asked, questionAuthor: setup.questionBy },
          }).created[0]!;
          for (const note of setup.personNotes) canvas.wire(canvas.addNote(note), question);
          for (const note of setup.appNotes) {
            const id = canvas.apply({ type: 'add-node', node: { kind: 'note', text: note, author: 'app' } })
              .created[0]!;
            canvas.wire(id, question);
          }
          const versionId = canvas.answer(question, setup.answer);
          const node = canvas.graph.nodes.get(question);
          const commitHash = node?.kind === 'question' ? node.versions[0]!.requestHash! : '';
          const found = exchangeFromCanvas(
            canvas.graph,
            { canvasId: canvas.graph.canvas.id, nodeId: question, versionId, commitHash },
            { at: 1, memoryBlock: null, recorded: [canvas.recordedCommit(question, versionId)] },
          );
          if (!found.ok) throw new Error(found.error.message);
          const exchange = found.value;

          const personTexts = [...(byPerson ? [asked] : []), ...setup.personNotes].map(normaliseText);
          const everyText = [asked, ...setup.personNotes, ...setup.appNotes, setup.answer];
          const cut = (attack: (typeof attacks)[number]): CandidateFact => {
            const from = everyText[attack.source % everyText.length]!;
            const next = everyText[(attack.source + 1) % everyText.length]!;
            const whole = attack.join ? `${from} ${next}` : from;
            const start = attack.start % whole.length;
            const span = whole.slice(start, start + attack.length);
            return {
              text: attack.textFromSpan ? span : setup.answer,
              category: attack.category,
              span,
              stated: attack.stated,
              updates: null,
              path: 'judge',
            };
          };
          const judged = judgedSentences(exchange).flatMap((each, index) => {
            const answer = judgements[index]!;
            const candidate = candidateFromJudgement(each, {
              durable: { durable: answer.durable, passing: 1 - answer.durable },
              category: { preference: answer.preference, identity: answer.identity, project: 0 },
              stated: { stated: answer.stated, implied: 1 - answer.stated },
            });
            return candidate ? [candidate] : [];
          });
          const pipeline = [...ruleDecide(exchange), ...judged];

          for (const candidate of [...pipeline, ...attacks.map(cut)]) {
            const verdict = admitFact(candidate, exchange, emptyProfile(), 0);
            if (!verdict.admitted) continue;
            admitted += 1;
            const span = normaliseText(verdict.fact.span);
            expect(
              personTexts.some((person) => person.includes(span)),
              verdict.fact.span,
            ).toBe(true);
            expect(words(span).filter((word) => OTHER_WORDS.some((other) => word.includes(other)))).toEqual([]);
          }
          // The rule path and the judge never write words: what they admit says exactly the span.
          for (const candidate of pipeline) {
            const verdict = admitFact(candidate, exchange, emptyProfile(), 0);
            if (verdict.admitted) expect(verdict.fact.text).toBe(verdict.fact.span);
          }
        },
      ),
      { numRuns: 150 },
    );
    // Not vacuous: the person's first-person statements do get in.
    expect(admitted).toBeGreaterThan(50);
  });
});
