import type { ParsedCommand } from '../command-table.ts';
import { CliError } from '../cli-error.ts';
import { formatTime, printJson } from '../format.ts';
import { openIndexReader } from '../open-why-index.ts';
import type { Terminal } from '../terminal.ts';

interface StepView {
  name?: string;
  op?: string;
  inputSummary?: string;
  files?: string[];
  resultSummary?: string;
  isError?: boolean;
}

/**
 * `weft recall <turnKey>` or `weft recall <sessionId> <turn>`: the turn verbatim, from the team index when
 * `WEFT_DATABASE_URL` names one (any machine's pushed turn; the machines holding it when the team has several).
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const [first, second] = command.positionals as [string, string | undefined];
  let request: { turnKey: string } | { sessionId: string; turn: number };
  if (second === undefined) {
    request = { turnKey: first };
  } else {
    const turn = Number(second);
    if (!Number.isInteger(turn) || turn <= 0)
      throw new CliError('bad-usage', `turn must be a positive number, got "${second}"`, 2);
    request = { sessionId: first, turn };
  }
  const { reader, close } = await openIndexReader(io);
  try {
    const turn = await reader.recall(request);
    if (command.flags.json) {
      printJson(io.out, turn);
      return 0;
    }
    const lines = [
      `${turn.runner}  session ${turn.sessionId}  turn ${turn.turn}  ${formatTime(turn.at)}${turn.model ? `  ${turn.model}` : ''}`,
      `key  ${turn.turnKey}`,
      ...(turn.cwd ? [`cwd  ${turn.cwd}`] : []),
      ...('machines' in turn && turn.machines
        ? [`on   ${turn.machines.map((machine) => `${machine.name} (${machine.person})`).join(', ')}`]
        : []),
      ...(turn.status ? [`status ${turn.status.replaceAll('-', ' ')}`] : []),
      `file ${turn.sourcePath}${turn.sourceDeleted ? '  (source deleted: answered from the archive)' : ''}`,
      '',
      '## Question',
      turn.question,
      '',
      '## Answer',
      turn.answer || '(no answer text)',
    ];
    const steps = turn.steps as StepView[];
    if (steps.length > 0) {
      lines.push('', '## Tool steps');
      steps.forEach((step, position) => {
        lines.push(
          `${position + 1}. ${step.name ?? '?'} [${step.op ?? 'other'}]${step.isError ? ' (error)' : ''} ${step.inputSummary ?? ''}`.trimEnd(),
        );
        for (const file of step.files ?? []) lines.push(`   file: ${file}`);
        if (step.resultSummary) lines.push(`   → ${step.resultSummary.replaceAll('\n', '\n     ')}`);
      });
    }
    io.out(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await close();
  }
}
