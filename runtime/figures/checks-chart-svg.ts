import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { checksChartSpec, type ResultsCell } from '../../src/core/index.ts';

/**
 * Issue 31: the Results view's chart (a bar chart per check, `checksChartSpec`) as SVG text, rendered headless by
 * Vega — no browser, no network (the spec holds its data inline), as the benchmark's figures are.
 */
export async function checksChartSvg(cells: readonly ResultsCell[]): Promise<string> {
  const spec = checksChartSpec(cells) as unknown as TopLevelSpec;
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
