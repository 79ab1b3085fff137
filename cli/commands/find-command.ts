import { resolve } from 'node:path';
import type { FindField } from '../../runtime/index/index.ts';
import type { ParsedCommand } from '../command-table.ts';
import { formatTime, printJson, shortId } from '../format.ts';
import { openIndexReader } from '../open-why-index.ts';
import type { Terminal } from '../terminal.ts';

const FIELDS: Record<string, FindField> = { q: 'question', a: 'answer', m: 'material' };

/** `weft find "<phrase>"`: exact words, best matches first. */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const phrase = command.positionals[0]!;
  const { reader: index, close } = await openIndexReader(io);
  try {
    const field = command.flags.in ? FIELDS[command.flags.in as string] : undefined;
    const hits = await index.find(phrase, {
      ...(field ? { in: field } : {}),
      ...(command.flags.cwd ? { cwd: resolve(io.cwd, command.flags.cwd as string) } : {}),
      limit: (command.flags.limit as number | undefined) ?? 20,
    });
    if (command.flags.json) {
      printJson(io.out, hits);
      return 0;
    }
    if (hits.length === 0) {
      io.out(`no match for "${phrase}"\n`);
      return 0;
    }
    for (const hit of hits) {
      const where = hit.sessionId
        ? `${hit.runner ?? ''} ${shortId(hit.sessionId)}${hit.turn ? ` #${hit.turn}` : ''}`
        : hit.turnKey;
      io.out(
        `${hit.field.padEnd(8)}  ${formatTime(hit.at)}  ${where}${hit.cwd ? `  ${hit.cwd}` : ''}` +
          `${hit.sourceDeleted ? '  (source deleted)' : ''}\n    ${hit.snippet}\n`,
      );
    }
    return 0;
  } finally {
    await close();
  }
}
