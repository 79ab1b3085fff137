import { describe, expect, it } from 'vitest';
import type { AnswerCheck, QuestionNode } from '../../protocol/index.ts';
import { upstreamSnapshot } from './fingerprint.ts';
import { TestCanvas } from './test-canvas.ts';
import { CHECK_EVENT_OP, pendingRubrics, versionCheckResults } from './version-checks.ts';

const CHECKS: AnswerCheck[] = [
  { id: 'names-paris', kind: 'contains', text: 'Paris' },
  { id: 'is-2', kind: 'number', value: 2, tolerance: 0 },
  { id: 'cites', kind: 'rubric', rubric: 'Cites a source' },
];

describe('check results on a canvas', () => {
  it('scores every new version once, as events, and reads them back in the order of the checks', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('Which city, and how many visits?');
    canvas.edit(question, { checks: CHECKS });
    const first = canvas.answer(question, 'Paris, 2 visits.');
    const second = canvas.answer(question, 'London, 3 visits.', { model: 'other/model' });
    const events = canvas.graph.events.filter((event) => event.op === CHECK_EVENT_OP);
    // Two versions × the two checks that need no model; the rubric waits for the judge.
    expect(events.map((event) => [event.objectId, event.meta.checkId, event.meta.outcome])).toEqual([
      [first, 'names-paris', 'pass'],
      [first, 'is-2', 'pass'],
      [second, 'names-paris', 'fail'],
      [second, 'is-2', 'fail'],
    ]);
    expect(versionCheckResults(canvas.graph, question, second)).toEqual([
      { check: CHECKS[0], words: 'contains “Paris”', outcome: 'fail', detail: 'not found' },
      { check: CHECKS[1], words: 'number = 2', outcome: 'fail', detail: 'read 3' },
      { check: CHECKS[2], words: 'rubric: Cites a source', outcome: 'pending', detail: '' },
    ]);
  });

  it('records a rubric’s verdict as metadata and keeps the judge’s reason with the version (C10)', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('Where?');
    canvas.edit(question, { checks: CHECKS });
    const version = canvas.answer(question, 'Paris [1].');
    const fingerprint = JSON.stringify(upstreamSnapshot(canvas.graph, question));
    expect(pendingRubrics(canvas.graph)).toEqual([
      {
        nodeId: question,
        versionId: version,
        checkId: 'cites',
        rubric: 'Cites a source',
        question: 'Where?',
        answer: 'Paris [1].',
      },
    ]);
    const reason = 'It cites a bracketed source after the claim.';
    const judge = (outcome: 'pass' | 'fail', text: string, hash: string) =>
      canvas.apply({
        type: 'record-rubric',
        nodeId: question,
        versionId: version,
        checkId: 'cites',
        rubric: 'Cites a source',
        outcome,
        reason: text,
        judged: { model: 'judge/model', requestHash: hash },
      });
    judge('fail', 'First look: no source.', 'b'.repeat(64));
    judge('pass', reason, 'a'.repeat(64));
    const [, , rubric] = versionCheckResults(canvas.graph, question, version);
    expect(rubric).toMatchObject({ outcome: 'pass', detail: reason });
    const recorded = canvas.graph.events.filter((event) => event.op === CHECK_EVENT_OP && event.meta.kind === 'rubric');
    // The event names the verdict, the judge and its request; the reason (model-written text) is not in it.
    expect(recorded.at(-1)!.meta).toEqual({
      nodeId: question,
      checkId: 'cites',
      kind: 'rubric',
      outcome: 'pass',
      judgeModel: 'judge/model',
      requestHash: 'a'.repeat(64),
    });
    for (const event of canvas.graph.events) {
      expect(JSON.stringify(event.meta)).not.toContain('Paris [1]');
      expect(JSON.stringify(event.meta)).not.toContain('bracketed source');
    }
    const kept = (canvas.graph.nodes.get(question) as QuestionNode).versions.find((each) => each.id === version)!;
    expect(kept.rubricNotes).toEqual([
      { checkId: 'cites', rubric: 'Cites a source', reason, requestHash: 'a'.repeat(64) },
    ]);
    // Judged: no longer pending; and the verdict moved no fingerprint.
    expect(pendingRubrics(canvas.graph)).toEqual([]);
    expect(JSON.stringify(upstreamSnapshot(canvas.graph, question))).toBe(fingerprint);
    // A reworded rubric is judged again (as an edited check of another kind is re-scored); its old verdict shows
    // until then.
    canvas.edit(question, {
      checks: [CHECKS[0]!, CHECKS[1]!, { id: 'cites', kind: 'rubric', rubric: 'Cites two sources' }],
    });
    expect(pendingRubrics(canvas.graph)).toMatchObject([
      { versionId: version, checkId: 'cites', rubric: 'Cites two sources' },
    ]);
  });

  it('lists only complete versions’ unjudged rubrics, and refuses a verdict for a check the question does not carry', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('Where?');
    canvas.answer(question, 'Lyon.');
    expect(pendingRubrics(canvas.graph)).toEqual([]);
    canvas.edit(question, { checks: CHECKS });
    const [first] = pendingRubrics(canvas.graph);
    expect(first).toMatchObject({ checkId: 'cites', answer: 'Lyon.' });
    expect(pendingRubrics(canvas.graph, ['elsewhere'])).toEqual([]);
    const refused = canvas.tryApply({
      type: 'record-rubric',
      nodeId: question,
      versionId: first!.versionId,
      checkId: 'nope',
      rubric: 'Cites a source',
      outcome: 'pass',
      reason: '',
      judged: null,
    });
    expect(refused.ok).toBe(false);
  });

  it('a check added or changed later scores the answers already there; an unchanged one is not re-run', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('Where?');
    const version = canvas.answer(question, 'Lyon.');
    canvas.edit(question, { checks: [CHECKS[0]!] });
    expect(versionCheckResults(canvas.graph, question, version)[0]).toMatchObject({ outcome: 'fail' });
    const before = canvas.graph.events.length;
    canvas.edit(question, { checks: [{ id: 'names-paris', kind: 'contains', text: 'Lyon' }, CHECKS[1]!] });
    expect(canvas.graph.events.slice(before).map((event) => [event.op, event.meta.checkId ?? null])).toEqual([
      ['edit', null],
      [CHECK_EVENT_OP, 'names-paris'],
      [CHECK_EVENT_OP, 'is-2'],
    ]);
    expect(versionCheckResults(canvas.graph, question, version).map((result) => result.outcome)).toEqual([
      'pass',
      'fail',
    ]);
  });

  it('a question without checks records none and shows none', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('Anything?');
    const version = canvas.answer(question, 'Yes.');
    expect(canvas.eventOps()).not.toContain(CHECK_EVENT_OP);
    expect(versionCheckResults(canvas.graph, question, version)).toEqual([]);
  });
});
