import type { ParsedCommand } from '../command-table.ts';
import { printable, printJson } from '../format.ts';
import { megabytes, progressBar } from '../progress-bar.ts';
import type { Terminal } from '../terminal.ts';
import { teamDatabaseUrl } from '../open-why-index.ts';

/** `weft index [--full]`: build or update; prints files, MB, turns, time and parse-report totals. */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const { WhyIndex, PostgresIndex, formatParseTotals } = await import('../../runtime/index/index.ts');
  const teamUrl = teamDatabaseUrl(io, command.flags.db);
  const index = WhyIndex.open({ env: io.env });
  try {
    const progress = progressBar(io);
    const summary = command.flags.full
      ? await index.rebuild(progress.onProgress)
      : await index.index(progress.onProgress);
    progress.done();
    const status = index.status({ perFile: Boolean(command.flags.json) });
    // The team index (PostgreSQL) gets this machine's index whole; its location is shown, never its credentials.
    let team: { location: string; rows: Record<string, number>; durationMs: number } | null = null;
    if (teamUrl) {
      const database = await PostgresIndex.open(teamUrl);
      try {
        team = { location: database.location, ...(await database.copyFrom(index.database)) };
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
            ? `copied to the team index at ${team.location}: ${team.rows.turns ?? 0} turns, ${(team.durationMs / 1000).toFixed(2)} s\n`
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
