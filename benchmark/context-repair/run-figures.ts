import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { writeFileAtomic } from '../../runtime/fs/index.ts';
import { CONDITIONS } from './conditions.ts';
import type { RunScores } from './score-run.ts';

interface Row {
  condition: string;
  depth: string;
  value: number;
  low: number;
  high: number;
  n: number;
}

type Metric = 'accuracy' | 'adoption';

function rows(scores: RunScores, metric: Metric, byDepth: boolean): Row[] {
  return scores.conditions.flatMap((entry) => {
    const groups = byDepth ? Object.entries(entry.byDepth) : [['all', entry] as const];
    return groups.map(([depth, tally]) => {
      const interval = metric === 'accuracy' ? tally.wilson : tally.adoptionWilson;
      return {
        condition: entry.condition,
        depth: byDepth ? `depth ${depth}` : 'all depths',
        value: metric === 'accuracy' ? tally.accuracy : tally.adoption,
        low: interval.low,
        high: interval.high,
        n: tally.n,
      };
    });
  });
}

function spec(scores: RunScores, metric: Metric, byDepth: boolean): TopLevelSpec {
  const label = metric === 'accuracy' ? 'Accuracy' : 'Adoption of the polluted value';
  const who = scores.scripted ? `${scores.model} (scripted reference, not a model result)` : scores.model;
  const x = {
    field: 'condition',
    type: 'nominal' as const,
    sort: [...CONDITIONS],
    axis: { labelAngle: -30, title: null },
  };
  const offset = byDepth ? { xOffset: { field: 'depth', type: 'nominal' as const } } : {};
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: `${label} by condition${byDepth ? ' and depth' : ''}`, subtitle: `${who}; 95% Wilson intervals` },
    width: byDepth ? 560 : 420,
    height: 260,
    background: 'white',
    data: { values: rows(scores, metric, byDepth) },
    encoding: { x, ...offset },
    layer: [
      {
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: label },
          color: { field: 'depth', type: 'nominal', title: null },
          tooltip: [{ field: 'n', type: 'quantitative' }],
        },
      },
      {
        mark: { type: 'rule', color: 'black', strokeWidth: 1.5 },
        encoding: { y: { field: 'low', type: 'quantitative', title: label }, y2: { field: 'high' } },
      },
    ],
  };
}

/** The SVG text of one figure, rendered headless by Vega (no browser, no network). */
export async function renderSvg(scores: RunScores, metric: Metric, byDepth: boolean): Promise<string> {
  const view = new View(parse(compile(spec(scores, metric, byDepth)).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

export const FIGURE_NAMES = [
  'accuracy-by-condition',
  'adoption-by-condition',
  'accuracy-by-depth',
  'adoption-by-depth',
];

/** Writes every figure of a run as SVG and PNG into `directory`; returns the file names. */
export async function writeFigures(scores: RunScores, directory: string): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  const written: string[] = [];
  for (const name of FIGURE_NAMES) {
    const [metric, , by] = name.split('-') as [Metric, string, string];
    const svg = await renderSvg(scores, metric, by === 'depth');
    const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: true } }).render().asPng();
    await writeFileAtomic(join(directory, `${name}.svg`), svg);
    await writeFileAtomic(join(directory, `${name}.png`), png);
    written.push(`${name}.svg`, `${name}.png`);
  }
  return written;
}
