import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printable, printJson } from '../format.ts';
import { megabytes, progressBar } from '../progress-bar.ts';
import type { MemoryPushSummary, PushSummary } from '../../runtime/index/index.ts';
import type { Terminal } from '../terminal.ts';
import { teamDatabaseUrl } from '../open-why-index.ts';

/**
 * `weft index [--full] [--push [--db url]]`: build or update; prints files, MB, turns, time and parse-report totals.
 * With `--push`, then adds to the team index what this machine has not pushed yet.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const { WhyIndex, PostgresIndex, formatParseTotals, readMachineIdentity } =
    await import('../../runtime/index/index.ts');
  if (command.flags.db !== undefined && !command.flags.push)
    throw new CliError('bad-usage', '--db names the team index --push sends to: add --push', 2);
  const teamUrl = command.flags.push ? teamDatabaseUrl(io, command.flags.db) : null;
  if (command.flags.push && !teamUrl)
    throw new CliError('bad-usage', '--push needs the team index: --db postgres://… or WEFT_DATABASE_URL', 2);
  const index = WhyIndex.open({ env: io.env });
  try {
    const progress = progressBar(io);
    const summary = command.flags.full
      ? await index.rebuild(progress.onProgress)
      : await index.index(progress.onProgress);
    progress.done();
    const status = index.status({ perFile: Boolean(command.flags.json) });
    // The team index (PostgreSQL) gets what it lacks of this machine's; its location is shown, never its credentials.
    let team: ({ location: string; memory: MemoryPushSummary } & PushSummary) | null = null;
    if (teamUrl) {
      const database = await PostgresIndex.open(teamUrl);
      try {
        const machine = readMachineIdentity(index.weftHome, io.env);
        // Turns put aside here are never sent (and leave the team index if they were).
        const { readPutAsides } = await import('../../runtime/fs/index.ts');
        const { isPutAside } = await import('../../src/core/index.ts');
        const putAsides = readPutAsides(index.weftHome);
        const pushed = await database.push(
          index.database,
          machine,
          putAsides.size > 0 ? { sessionTurnPutAside: (text) => isPutAside(putAsides, 'session-turn', text) } : {},
        );
        // Then the person's topics and dossiers (never the profile), leaving out what is put aside here.
        const { readLocalMemory } = await import('../../runtime/dossiers/index.ts');
        const { putAside } = index.turnLookup();
        const memory = await database.pushMemory(machine, await readLocalMemory(index.weftHome, putAside));
        team = { location: database.location, ...pushed, memory };
      } finally {
        await database.close();
      }
    }
    if (command.flags.json) {
      printJson(io.out, {
        ...summary,
        turns: status.turns,
        sessions: status.sessions,
        parse: status.parse,
        parseByFile: status.parseByFile,
        ...(team ? { team } : {}),
      });
    } else {
      const seconds = (summary.durationMs / 1000).toFixed(2);
      io.out(
        `indexed ${summary.fullReads + summary.appendReads} of ${summary.files} files ` +
          `(${summary.appendReads} appended, ${summary.removed} removed), ${megabytes(summary.bytesRead)} MB, ` +
          `${summary.turnsWritten} turns written, ${status.turns} turns in ${status.sessions} sessions, ${seconds} s\n` +
          `parsed ${formatParseTotals(status.parse)}${summary.failed.length > 0 ? `; ${summary.failed.length} files failed` : ''}\n` +
          (team
            ? `pushed to the team index at ${team.location} as ${team.machine.name}: ${team.sources.pushed} files ` +
              `(${team.sources.unchanged} already there, ${team.sources.removed} removed), ` +
              `${team.rows.turns ?? 0} turns added, ${(team.durationMs / 1000).toFixed(2)} s\n`
            : ''),
      );
    }
    for (const failure of summary.failed)
      io.err(printable(`weft: could not read ${failure.path}: ${failure.reason}\n`));
    return 0;
  } finally {
    index.close();
  }
}
