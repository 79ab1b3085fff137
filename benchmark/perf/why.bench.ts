/**
 * Why-layer performance (see README.md, "## Why layer"). Prints one `name: value unit` per line.
 * Generates a corpus scaled from the real fixtures (about 1 GB; WEFT_BENCH_SCALE=0.1 for a quick run) in a
 * temporary folder, then measures the index, an append, `find` against rg and `why`, each comparison in this run.
 * Run with `npm run bench:why` (`WEFT_BENCH_QUICK=1`: a 3 MB corpus, seconds).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WhyIndex } from '../../runtime/index/index.ts';
import { announceQuickMode, QUICK } from './quick-mode.ts';
import { generateCorpus } from './why/generate-corpus.ts';
import { runChild } from './why/run-child.ts';

const scale = Number(process.env.WEFT_BENCH_SCALE ?? (QUICK ? '0.003' : '1'));
if (!(scale > 0)) throw new Error('WEFT_BENCH_SCALE must be a positive number');
const here = dirname(fileURLToPath(import.meta.url));
const realSessions = process.env.WEFT_FIXTURES
  ? join(process.env.WEFT_FIXTURES, 'real-sessions')
  : join(here, '..', '..', 'tests', 'fixtures', 'real-sessions');
function print(name: string, value: number, unit: string, digits = 1): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[sorted.length >> 1]!;
}

const workspace = mkdtempSync(join(tmpdir(), 'weft-why-bench-'));
try {
  announceQuickMode();
  print('nproc', availableParallelism(), 'cores', 0);
  let started = performance.now();
  const corpus = generateCorpus({ directory: join(workspace, 'corpus'), targetBytes: 1e9 * scale, realSessions });
  print('corpus_MB', corpus.bytes / 1e6, 'MB');
  print('corpus_files', corpus.files.length, 'files', 0);
  print('corpus_messages', corpus.lines, 'lines', 0);
  print('corpus_turns', corpus.turns, 'turns', 0);
  print('corpus_generate_s', (performance.now() - started) / 1000, 's');

  // Baseline: plain line-by-line JSON.parse of the same files.
  started = performance.now();
  for (const file of corpus.files) {
    const text = readFileSync(file, 'utf8');
    for (let start = 0; start < text.length;) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (end > start) JSON.parse(text.slice(start, end));
      start = end + 1;
    }
  }
  const parseSeconds = (performance.now() - started) / 1000;
  const jsonParseMBps = corpus.bytes / 1e6 / parseSeconds;
  print('json_parse_MBps', jsonParseMBps, 'MB/s');

  const env = {
    ...process.env,
    WEFT_HOME: join(workspace, 'weft-home'),
    WEFT_SESSION_ROOTS: corpus.roots.join(delimiter),
    HOME: join(workspace, 'home'),
  };
  // WEFT_BENCH_ARCHIVE=0 measures the index with preservation off, to see what keeping the copies costs.
  if (process.env.WEFT_BENCH_ARCHIVE === '0') {
    mkdirSync(env.WEFT_HOME, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(env.WEFT_HOME, 'settings.json'),
      JSON.stringify({ sessionArchive: { enabled: false, runners: { 'claude-code': true, codex: true, pi: true } } }),
    );
  }
  const indexed = runChild('index-child.ts', [], env);
  const indexMBps = indexed.bytesRead! / 1e6 / (indexed.durationMs! / 1000);
  print('index_MBps', indexMBps, 'MB/s');
  print('index_vs_json_parse', indexMBps / jsonParseMBps, 'x', 2);
  print('index_s', indexed.durationMs! / 1000, 's');
  print('index_peak_rss_MB', indexed.maxRssKB! / 1024, 'MB');
  print('index_turns', indexed.turns!, 'turns', 0);
  print('index_db_MB', indexed.databaseBytes! / 1e6, 'MB');
  // Preservation is on by default: index_MBps above includes keeping a gzip copy of every file.
  print('archive_MB_per_GB', indexed.archiveBytes! / 1e6 / (corpus.bytes / 1e9), 'MB');
  print('archive_sessions', indexed.archiveSessions!, 'files', 0);
  if (indexed.turns! < corpus.turns * 0.99) console.error(`warning: indexed ${indexed.turns} of ${corpus.turns} turns`);

  // Append about 1 MB of new turns to one session and refresh (the stat pass over every file included).
  // A running index (the MCP server, the app): opened and refreshed once, then a session grows by 1 MB.
  const index = WhyIndex.open({ env });
  await index.refresh();
  const appended = corpus.appendTurns(1_000_000);
  started = performance.now();
  const refresh = await index.refresh();
  print('reindex_after_1MB_append_ms', performance.now() - started, 'ms');
  print('reindex_files_read', refresh.fullReads + refresh.appendReads, 'files', 0);
  print('reindex_bytes_read_MB', refresh.bytesRead / 1e6, 'MB', 2);
  if (refresh.appendReads !== 1 || index.find(corpus.phrases.at(-1)!).length === 0) {
    throw new Error(`the appended ${appended} bytes were not picked up from their offset`);
  }
  index.close();

  // Queries in a fresh process: rare phrases written into prompts, a common phrase, and edited paths.
  const phrases = corpus.phrases
    .filter((_, position) => position % Math.max(1, Math.floor(corpus.phrases.length / 50)) === 0)
    .slice(0, 50);
  const paths = corpus.touchedPaths
    .filter((_, position) => position % Math.max(1, Math.floor(corpus.touchedPaths.length / 50)) === 0)
    .slice(0, 50);
  const queryInput = join(workspace, 'queries.json');
  writeFileSync(
    queryInput,
    JSON.stringify({ phrases, commonPhrases: ['Mark the first item as done', 'update docs'], paths }),
  );
  const queried = runChild('query-child.ts', [queryInput], env);
  if (queried.findEmpty || queried.whyEmpty)
    console.error(`warning: ${queried.findEmpty} finds and ${queried.whyEmpty} whys came back empty`);
  print('stat_pass_ms', queried.statPassMs!, 'ms');
  print('find_p50_ms', queried.findP50!, 'ms', 2);
  print('find_p95_ms', queried.findP95!, 'ms', 2);
  print('find_common_phrase_p50_ms', queried.commonFindP50!, 'ms', 2);
  print('why_p50_ms', queried.whyP50!, 'ms', 2);
  print('why_p95_ms', queried.whyP95!, 'ms', 2);
  print('query_peak_rss_MB', queried.maxRssKB! / 1024, 'MB');

  // The same rare phrases with a plain scan of the raw files.
  const scanner = hasRipgrep() ? 'rg' : 'grep';
  const scanTimes: number[] = [];
  for (const phrase of phrases.slice(0, 5)) {
    started = performance.now();
    const args =
      scanner === 'rg' ? ['-F', '-l', '--no-messages', phrase, ...corpus.roots] : ['-rFl', phrase, ...corpus.roots];
    spawnSync(scanner, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    scanTimes.push(performance.now() - started);
  }
  if (scanner === 'grep') console.error('rg not found: timing grep -rF instead');
  print(`${scanner}_find_ms`, median(scanTimes), 'ms');
  print(`find_vs_${scanner}`, median(scanTimes) / queried.findP50!, 'x');
} finally {
  if (!process.env.WEFT_BENCH_KEEP) rmSync(workspace, { recursive: true, force: true });
  else console.error(`kept ${workspace}`);
}

function hasRipgrep(): boolean {
  try {
    execFileSync('rg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
