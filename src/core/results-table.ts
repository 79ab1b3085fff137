import type { Graph } from './graph.ts';
import { csvCell } from './event-log.ts';
import { isLive } from './live.ts';
import { nodeTitle } from './node-title.ts';
import { versionCheckResults } from './version-checks.ts';

/** One check's results for one model: how many of that model's scored answers passed. */
export interface ResultsCell {
  nodeId: string;
  question: string;
  checkId: string;
  words: string;
  model: string;
  passed: number;
  /** Answers with a pass or fail for this check (pending and errors are not scored). */
  scored: number;
}

/** One row of the table: a question × a model, over all of the question's checks. */
export interface ResultsRow {
  nodeId: string;
  question: string;
  model: string;
  answers: number;
  passed: number;
  scored: number;
  /** passed / scored, or null when nothing is scored yet. */
  passRate: number | null;
}

export interface ResultsTable {
  rows: ResultsRow[];
  cells: ResultsCell[];
}

function rate(passed: number, scored: number): number | null {
  return scored === 0 ? null : passed / scored;
}

/**
 * Issue 31: the canvas's Results — every live question that carries checks, × every model that answered it (its
 * complete versions), with pass counts per check (`cells`, the chart's data) and over all checks (`rows`, the
 * table). Read from the `check` events through `versionCheckResults`, like the card and the Compare tab. Questions in
 * canvas order, models by name.
 */
export function resultsTable(graph: Graph): ResultsTable {
  const rows: ResultsRow[] = [];
  const cells: ResultsCell[] = [];
  for (const node of graph.nodes.values()) {
    if (node.kind !== 'question' || !isLive(node) || !node.checks?.length) continue;
    const question = nodeTitle(node);
    const byModel = new Map<string, { answers: number; cells: Map<string, ResultsCell> }>();
    for (const version of node.versions) {
      if (version.status !== 'complete') continue;
      let entry = byModel.get(version.model);
      if (!entry) byModel.set(version.model, (entry = { answers: 0, cells: new Map() }));
      entry.answers += 1;
      for (const result of versionCheckResults(graph, node.id, version.id)) {
        let cell = entry.cells.get(result.check.id);
        if (!cell) {
          cell = {
            nodeId: node.id,
            question,
            checkId: result.check.id,
            words: result.words,
            model: version.model,
            passed: 0,
            scored: 0,
          };
          entry.cells.set(result.check.id, cell);
        }
        if (result.outcome === 'pass' || result.outcome === 'fail') cell.scored += 1;
        if (result.outcome === 'pass') cell.passed += 1;
      }
    }
    for (const model of [...byModel.keys()].sort()) {
      const entry = byModel.get(model)!;
      const own = [...entry.cells.values()];
      const passed = own.reduce((sum, cell) => sum + cell.passed, 0);
      const scored = own.reduce((sum, cell) => sum + cell.scored, 0);
      rows.push({
        nodeId: node.id,
        question,
        model,
        answers: entry.answers,
        passed,
        scored,
        passRate: rate(passed, scored),
      });
      cells.push(...own);
    }
  }
  return { rows, cells };
}

/** The table as CSV (one row per question × model), as the Results view shows it: the pass rate to one decimal. */
export function resultsCsv(table: ResultsTable): string {
  const lines = ['question,model,answers,passed,scored,pass_rate_percent'];
  for (const row of table.rows) {
    const percent = row.passRate === null ? '' : (row.passRate * 100).toFixed(1);
    lines.push(
      [row.question, row.model, String(row.answers), String(row.passed), String(row.scored), percent]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** The pass rate as the table shows it ("75.0%", or "—" when nothing is scored). */
export function passRateText(passRate: number | null): string {
  return passRate === null ? '—' : `${(passRate * 100).toFixed(1)}%`;
}
