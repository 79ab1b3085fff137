import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';

/** `weft purge`: deletes the index database under WEFT_HOME; the next query rebuilds it. */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const { purgeIndex } = await import('../../runtime/index/index.ts');
  const result = purgeIndex({ env: io.env });
  if (command.flags.json) printJson(io.out, result);
  else io.out(`removed ${result.removed}\n`);
  return 0;
}
