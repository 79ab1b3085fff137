/**
 * Runs one full index in its own process so the benchmark can read this process's peak RSS.
 * Prints one JSON line: { durationMs, bytesRead, turns, databaseBytes, archiveBytes, archiveSessions, maxRssKB }.
 * The session archive is on (its default), so the time includes keeping the compressed copies.
 */
import { WhyIndex } from '../../../runtime/index/index.ts';

const started = performance.now();
const index = WhyIndex.open({ env: process.env });
const summary = await index.index();
// Everything from opening to the renamed, checkpointed file, not only the reads and writes.
const durationMs = performance.now() - started;
const status = index.status();
index.close();
if (summary.failed.length > 0)
  console.error(`unreadable: ${summary.failed.length}, first: ${summary.failed[0]!.reason}`);
console.log(
  JSON.stringify({
    durationMs,
    bytesRead: summary.bytesRead,
    turns: status.turns,
    databaseBytes: status.databaseBytes,
    archiveBytes: status.archive.bytes,
    archiveSessions: status.archive.sessions,
    maxRssKB: process.resourceUsage().maxRSS,
  }),
);
