import type { IndexReader, UpdateSummary, WhyIndex } from '../runtime/index/index.ts';
import { CliError } from './cli-error.ts';
import { progressBar } from './progress-bar.ts';
import type { Terminal } from './terminal.ts';

/** Opens the index and makes the cheap stat pass every query starts with, saying on stderr what moved. */
export async function openFreshIndex(io: Terminal): Promise<WhyIndex> {
  const { WhyIndex } = await import('../runtime/index/index.ts');
  const index = WhyIndex.open({ env: io.env });
  try {
    const progress = progressBar(io);
    const summary = await index.refresh(progress.onProgress);
    progress.done();
    const notice = refreshNotice(summary);
    if (notice) io.err(`weft: ${notice}\n`);
    return index;
  } catch (error) {
    index.close();
    throw error;
  }
}

export function refreshNotice(summary: UpdateSummary): string | null {
  const read = summary.fullReads + summary.appendReads;
  if (read === 0 && summary.removed === 0 && summary.failed.length === 0) return null;
  const parts = [`index refreshed: ${read} file${read === 1 ? '' : 's'} read`];
  if (summary.appendReads > 0) parts.push(`${summary.appendReads} from where reading stopped`);
  if (summary.removed > 0) parts.push(`${summary.removed} gone`);
  if (summary.failed.length > 0) parts.push(`${summary.failed.length} unreadable`);
  return parts.join(', ');
}

/** The team index's connection string (`WEFT_DATABASE_URL`, or `--db`); a secret, never printed. */
export function teamDatabaseUrl(io: Terminal, flag?: unknown): string | null {
  const url = typeof flag === 'string' && flag !== '' ? flag : io.env.WEFT_DATABASE_URL;
  if (!url) return null;
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new CliError('bad-usage', 'the team index must be a postgres:// (or postgresql://) connection string', 2);
  return url;
}

/**
 * The read paths of `weft why | find | recall | status | topics | dossier`: the local index (`index`), freshened, and —
 * when `WEFT_DATABASE_URL` names a team's PostgreSQL database — answers from there. `close()` closes both.
 */
export async function openIndexReader(
  io: Terminal,
): Promise<{ reader: IndexReader; index: WhyIndex; close(): Promise<void> }> {
  const { postgresReader, sqliteReader, PostgresIndex } = await import('../runtime/index/index.ts');
  const index = await openFreshIndex(io);
  try {
    const url = teamDatabaseUrl(io);
    if (!url) return { reader: sqliteReader(index), index, close: async () => index.close() };
    const team = await PostgresIndex.open(url);
    return {
      reader: postgresReader(index, team),
      index,
      close: async () => {
        index.close();
        await team.close();
      },
    };
  } catch (error) {
    index.close();
    throw error;
  }
}
