import type { ParsedCommand } from '../command-table.ts';
import { formatTime, printJson } from '../format.ts';
import { openIndexReader } from '../open-why-index.ts';
import { megabytes } from '../progress-bar.ts';
import type { Terminal } from '../terminal.ts';
import { formatParseTotals, type ArchiveStatus } from '../../runtime/index/index.ts';

/** `weft status`: roots, sources, sessions, turns, parse-report totals, database size, last index time. */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const { reader: index, close } = await openIndexReader(io);
  try {
    const status = await index.status({ perFile: Boolean(command.flags.json) });
    if (command.flags.json) {
      printJson(io.out, status);
      return 0;
    }
    io.out(
      [
        `index     ${status.databasePath} (schema ${status.schemaVersion}, ${megabytes(status.databaseBytes)} MB)`,
        `roots     ${status.roots.join('\n          ')}`,
        `sources   ${status.sources.sessions} session files, ${status.sources.memoryFiles} memory files, ${status.sources.canvases} canvases`,
        `reads     ${status.sources.fullReads} full, ${status.sources.appendReads} from where reading stopped`,
        `sessions  ${status.sessions}`,
        `turns     ${status.turns} (${status.touches} file touches, ${status.materials} materials)`,
        `parsing   ${formatParseTotals(status.parse)}`,
        `indexed   ${formatTime(status.lastIndexedAt)}`,
        `archive   ${
          status.archive.enabled
            ? `on for ${status.archive.runners.join(', ') || 'no runner'}`
            : 'off (session files deleted by their agents leave the index)'
        }: ${status.archive.sessions} session files kept, ${megabytes(status.archive.bytes)} MB in ${status.archive.directory}` +
          `; ${status.archive.sourceDeleted ?? 0} sessions with source deleted`,
        `verified  ${archiveHealth(status.archive)}`,
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await close();
  }
}

/** The archive's health: what the last verification found, and copies that have no hash yet. */
function archiveHealth(archive: ArchiveStatus): string {
  const last = archive.lastVerification;
  const unhashed = archive.unhashed > 0 ? `; ${archive.unhashed} copies kept before Weft hashed copies` : '';
  if (!last) return `never (weft archive verify)${unhashed}`;
  const found = last.firstBad ? `${last.bad} bad, first ${last.firstBad.path}: ${last.firstBad.reason}` : `intact`;
  return `${formatTime(last.verifiedAt)}: ${last.copies} copies ${found}, ${last.unverified} unverified${unhashed}`;
}
