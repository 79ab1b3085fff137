import type { ParsedCommand } from '../command-table.ts';
import { CliError } from '../cli-error.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';

/**
 * `weft purge`: deletes the index database under WEFT_HOME; the next query rebuilds it. With `--archive`, the
 * kept copies of session files go too (all, or one runner's: then the index stays and drops at its next update
 * the sessions whose file is gone).
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const { purgeIndex, purgeArchive } = await import('../../runtime/index/index.ts');
  const runner = command.flags.runner as string | undefined;
  if (runner && !command.flags.archive) throw new CliError('usage', '--runner goes with --archive');
  const archive = command.flags.archive ? purgeArchive({ env: io.env, ...(runner ? { runner } : {}) }) : null;
  const index = runner ? null : purgeIndex({ env: io.env });
  const removed = [...(index ? [index.removed] : []), ...(archive ? [archive.removed] : [])];
  if (command.flags.json) printJson(io.out, { removed });
  else io.out(removed.map((path) => `removed ${path}\n`).join(''));
  return 0;
}
