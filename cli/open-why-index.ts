import type { UpdateSummary, WhyIndex } from '../runtime/index/index.ts';
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
