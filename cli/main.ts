import { CliError } from './cli-error.ts';
import { helpText, parseCommandLine, type ParsedCommand } from './command-table.ts';
import { printable } from './format.ts';
import { terminal, type Terminal } from './terminal.ts';

/** Handlers are imported only when their command runs, so `weft help` never loads SQLite or the MCP SDK. */
const HANDLERS: Record<string, () => Promise<{ run: (command: ParsedCommand, io: Terminal) => Promise<number> }>> = {
  index: () => import('./commands/index-command.ts'),
  why: () => import('./commands/why-command.ts'),
  find: () => import('./commands/find-command.ts'),
  recall: () => import('./commands/recall-command.ts'),
  status: () => import('./commands/status-command.ts'),
  verify: () => import('./commands/verify-command.ts'),
  compare: () => import('./commands/compare-command.ts'),
  import: () => import('./commands/import-command.ts'),
  topics: () => import('./commands/topics-command.ts'),
  dossier: () => import('./commands/dossier-command.ts'),
  memory: () => import('./commands/memory-command.ts'),
  purge: () => import('./commands/purge-command.ts'),
  archive: () => import('./commands/archive-command.ts'),
  compile: () => import('./commands/compile-command.ts'),
  bundle: () => import('./commands/bundle-command.ts'),
  mcp: () => import('./commands/mcp-command.ts'),
  db: () => import('./commands/db-command.ts'),
  setup: () => import('./commands/setup-command.ts'),
};

/** Runs one command line; sets `process.exitCode` (never calls `process.exit`, so output always flushes). */
export async function main(argv: readonly string[], io: Terminal = terminal()): Promise<void> {
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.command.name === 'help') {
      io.out(`${helpText(parsed.positionals[0])}\n`);
      return;
    }
    const handler = await HANDLERS[parsed.command.name]!();
    process.exitCode = await handler.run(parsed, parsed.flags.json ? io : printableTerminal(io));
  } catch (error) {
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
    io.err(`weft: ${printable(oneLine(error))}\n`);
  }
}

/**
 * Human output never passes a session's control characters to the terminal (see `printable`). Stderr
 * carries only Weft's own notices and the progress bar (which needs its carriage returns).
 */
function printableTerminal(io: Terminal): Terminal {
  return { ...io, out: (text) => io.out(printable(text)) };
}

function oneLine(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const message = error.message.split('\n')[0] ?? '';
    return typeof code === 'string' && !(error instanceof CliError) && !message.startsWith(code)
      ? `${message} [${code}]`
      : message;
  }
  return String(error);
}
