import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Graph, RunComparison, RunComparisonRow } from '../../src/core/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { oneLineText, printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';

/** Larger than any canvas the app writes; a bigger file is refused before it is parsed. */
const MAX_CANVAS_BYTES = 256 * 1024 * 1024;

/**
 * `weft compare <canvas> --run <name>`: the Run comparison of a re-run under another model (issue 31), read from
 * the saved canvas (by id or name in $WEFT_HOME, or a `.weft.json` file): per question the run answered, upstream
 * first, whether its checks' verdicts and its extracted number changed, and the first question where the runs
 * diverge. Without --run it lists the canvas's runs. Exit 0 when the runs agree, 1 when they diverge somewhere.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const core = await import('../../src/core/index.ts');
  const graph = await readCanvas(command.positionals[0]!, io, core.loadCanvas);
  const runName = command.flags.run;
  const runs = core.runNames(graph);
  if (typeof runName !== 'string') {
    if (command.flags.json) printJson(io.out, { id: graph.canvas.id, name: graph.canvas.name, runs });
    else io.out(runs.length === 0 ? `${graph.canvas.name}: no re-runs\n` : `${runs.join('\n')}\n`);
    return 0;
  }
  if (!runs.includes(runName))
    throw new CliError(
      'not-found',
      `no run "${runName}" on "${graph.canvas.name}"${runs.length > 0 ? `; its runs: ${runs.join(', ')}` : ''}`,
    );
  // Issue 31: the number (`answerValue`) and the checks' verdicts are compared once their readers are in src/core
  // (they are being moved and built beside this command); until then both columns read "—", never a guess.
  const comparison = core.runComparison(graph, runName);
  if (command.flags.json) printJson(io.out, { id: graph.canvas.id, name: graph.canvas.name, ...comparison });
  else io.out(table(comparison));
  return comparison.firstDivergence === null ? 0 : 1;
}

function table(comparison: RunComparison): string {
  const lines = [
    `Run "${comparison.runName}" under ${comparison.model}: ${comparison.rows.length} questions, ${comparison.diverged} diverged`,
  ];
  const first = comparison.rows.find((row) => row.nodeId === comparison.firstDivergence);
  lines.push(
    first
      ? `First divergence: ${first.nodeId} "${oneLineText(first.question, 60)}"`
      : 'The runs agree on every question compared.',
  );
  lines.push('', `${'#'.padStart(4)}  ${'question'.padEnd(48)}  ${'number'.padEnd(20)}  ${'checks'.padEnd(9)}`);
  comparison.rows.forEach((row, index) => {
    lines.push(
      `${String(index + 1).padStart(4)}  ${oneLineText(row.question, 48).padEnd(48)}  ${numbers(row).padEnd(20)}  ${changed(row.checksChanged).padEnd(9)}${row.diverged ? '  diverged' : ''}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

function numbers(row: RunComparisonRow): string {
  if (row.numberChanged === null) return '—';
  return `${row.original?.number ?? '—'} → ${row.rerun?.number ?? '—'}`;
}

function changed(value: boolean | null): string {
  return value === null ? '—' : value ? 'changed' : 'same';
}

/** The canvas named by id or name in $WEFT_HOME (as `weft verify` finds it), else a canvas file at that path. */
async function readCanvas(
  wanted: string,
  io: Terminal,
  loadCanvas: typeof import('../../src/core/index.ts').loadCanvas,
): Promise<Graph> {
  const { CanvasStore, canvasesDirectory, resolveWeftHome } = await import('../../runtime/fs/index.ts');
  const directory = canvasesDirectory(resolveWeftHome(io.env));
  const store = new CanvasStore({ directory });
  const { canvases } = await store.list();
  const byName = canvases.filter((canvas) => canvas.name === wanted);
  const summary = canvases.find((canvas) => canvas.id === wanted) ?? (byName.length === 1 ? byName[0] : undefined);
  if (byName.length > 1 && !summary)
    throw new CliError(
      'ambiguous',
      `${byName.length} canvases are named "${wanted}"; give its id: ${byName.map((canvas) => canvas.id).join(', ')}`,
    );
  let raw: unknown;
  if (summary) raw = (await store.read(summary.id)).document;
  else {
    const file = resolve(io.cwd, wanted);
    const size = await stat(file).then(
      (found) => found.size,
      () => {
        throw new CliError('not-found', `no canvas "${wanted}" under ${directory}, and no such file`);
      },
    );
    if (size > MAX_CANVAS_BYTES) throw new CliError('too-large', `${file} is larger than 256 MB`);
    try {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      throw new CliError('corrupt', `${file} is not a JSON canvas`);
    }
  }
  const loaded = loadCanvas(raw);
  if (!loaded.ok) throw new CliError(loaded.error.code, `${wanted}: ${loaded.error.message}`);
  return loaded.value.graph;
}
