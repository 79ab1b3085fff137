import type { ResultsCell } from './results-table.ts';

/** The widest label a chart's check title shows before it is cut. */
const TITLE_MAX = 60;

/**
 * Issue 31: the Results chart as a vega-lite spec (plain JSON, so core needs no vega): one bar chart per check —
 * a facet per check, a bar per model, its height the pass rate. Inline data only: the spec never names a URL, so
 * rendering it fetches nothing.
 */
export function checksChartSpec(cells: readonly ResultsCell[]): Record<string, unknown> {
  const values = cells.map((cell) => ({
    check: `${cell.question.slice(0, 30)} · ${cell.words}`.slice(0, TITLE_MAX),
    model: cell.model,
    passRate: cell.scored === 0 ? 0 : cell.passed / cell.scored,
    label: `${cell.passed}/${cell.scored}`,
  }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { row: { field: 'check', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left' } } },
    spec: {
      width: 360,
      height: { step: 18 },
      layer: [
        {
          mark: { type: 'bar', color: '#4c78a8' },
          encoding: {
            y: { field: 'model', type: 'nominal', title: null },
            x: {
              field: 'passRate',
              type: 'quantitative',
              title: 'pass rate',
              scale: { domain: [0, 1] },
              axis: { format: '%' },
            },
          },
        },
        {
          mark: { type: 'text', align: 'left', dx: 4 },
          encoding: {
            y: { field: 'model', type: 'nominal' },
            x: { field: 'passRate', type: 'quantitative' },
            text: { field: 'label' },
          },
        },
      ],
    },
  };
}
