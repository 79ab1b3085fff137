import { describe, expect, it } from 'vitest';
import { TestCanvas } from './test-canvas.ts';
import { resultsCsv, resultsTable } from './results-table.ts';

function studyCanvas() {
  const canvas = new TestCanvas();
  const city = canvas.addQuestion('Which city hosts the tower?');
  canvas.edit(city, {
    checks: [
      { id: 'paris', kind: 'contains', text: 'Paris' },
      { id: 'year', kind: 'number', value: 1889, tolerance: 0 },
    ],
  });
  canvas.answer(city, 'Paris, built in 1889.', { model: 'alpha/one' });
  canvas.answer(city, 'Paris, finished 1887.', { model: 'alpha/one' });
  canvas.answer(city, 'Lyon, 1889.', { model: 'beta/two' });
  const unchecked = canvas.addQuestion('No checks here');
  canvas.answer(unchecked, 'Anything.');
  return { canvas, city };
}

describe('resultsTable', () => {
  it('gives questions × models with pass counts over every check, and a cell per check for the chart', () => {
    const { canvas, city } = studyCanvas();
    const table = resultsTable(canvas.graph);
    expect(table.rows).toEqual([
      {
        nodeId: city,
        question: 'Which city hosts the tower?',
        model: 'alpha/one',
        answers: 2,
        passed: 3,
        scored: 4,
        passRate: 0.75,
      },
      {
        nodeId: city,
        question: 'Which city hosts the tower?',
        model: 'beta/two',
        answers: 1,
        passed: 1,
        scored: 2,
        passRate: 0.5,
      },
    ]);
    expect(table.cells.map((cell) => [cell.model, cell.words, cell.passed, cell.scored])).toEqual([
      ['alpha/one', 'contains “Paris”', 2, 2],
      ['alpha/one', 'number = 1889', 1, 2],
      ['beta/two', 'contains “Paris”', 0, 1],
      ['beta/two', 'number = 1889', 1, 1],
    ]);
  });

  it('exports the table as CSV, row for row, defusing a formula-like question', () => {
    const { canvas, city } = studyCanvas();
    canvas.edit(city, { question: '=HYPERLINK("x"), which city?' });
    expect(resultsCsv(resultsTable(canvas.graph))).toBe(
      'question,model,answers,passed,scored,pass_rate_percent\r\n' +
        `"'=HYPERLINK(""x""), which city?",alpha/one,2,3,4,75.0\r\n` +
        `"'=HYPERLINK(""x""), which city?",beta/two,1,1,2,50.0\r\n`,
    );
  });
});
