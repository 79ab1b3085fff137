import type { ParsedCommand } from '../command-table.ts';
import { formatTime, oneLineText, printJson, shortId } from '../format.ts';
import { openIndexReader } from '../open-why-index.ts';
import type { Terminal } from '../terminal.ts';

/** `weft why <path>` and `weft why --check <path>`. */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const target = command.positionals[0]!;
  const { reader: index, close } = await openIndexReader(io);
  try {
    const targetOptions = { cwd: io.cwd, all: Boolean(command.flags.all) };
    if (command.flags.check) {
      const history = await index.hasHistory(target, targetOptions);
      if (command.flags.json) printJson(io.out, { path: target, history });
      else io.out(`${target}: ${history ? 'has history' : 'no history'}\n`);
      return history ? 0 : 1;
    }
    const result = await index.why(target, {
      ...targetOptions,
      includeRead: Boolean(command.flags['include-read']),
      limit: (command.flags.limit as number | undefined) ?? 20,
    });
    if (command.flags.json) {
      printJson(io.out, result.hits);
      return 0;
    }
    if (result.hits.length === 0) {
      io.out(`no turn touched ${target}${result.putAside > 0 ? ` (${result.putAside} put aside)` : ''}\n`);
      return 0;
    }
    for (const hit of result.hits) {
      io.out(
        `${formatTime(hit.at)}  ${hit.runner.padEnd(11)} ${shortId(hit.sessionId)} #${hit.turn}  ${hit.op.padEnd(6)} ${hit.path}` +
          `${hit.sourceDeleted ? '  (source deleted)' : ''}\n` +
          `    ${oneLineText(hit.question, 110) || '(no question text)'}\n` +
          `    weft recall ${quote(hit.turnKey)}\n`,
      );
    }
    if (result.hiddenReads > 0) {
      io.out(
        `(${result.hiddenReads} read-only or failed turn${result.hiddenReads === 1 ? '' : 's'} hidden; --include-read shows them)\n`,
      );
    }
    if (result.putAside > 0)
      io.out(
        `(${result.putAside} turn${result.putAside === 1 ? '' : 's'} put aside: archived or deleted content stays out)\n`,
      );
    return 0;
  } finally {
    await close();
  }
}

function quote(text: string): string {
  return /^[\w:#./@-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
