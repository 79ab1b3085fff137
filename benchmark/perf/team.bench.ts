/**
 * The team index on PostgreSQL against the embedded SQLite index, same corpus, same run (issue 32; README.md,
 * "## Team index"). Prints one `name: value unit` per line. The corpus is bench:why's (about 1 GB;
 * `WEFT_BENCH_QUICK=1`: 3 MB, seconds); the server is a scratch one started as the tests start theirs.
 * Run with `npm run bench:team`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  grantProject,
  initTeamDatabase,
  PostgresIndex,
  resolveWhyTargets,
  WhyIndex,
  withTeamClient,
} from '../../runtime/index/index.ts';
import { startPostgres } from '../../tests/support/index.ts';
import { announceQuickMode, QUICK } from './quick-mode.ts';
import { generateCorpus } from './why/generate-corpus.ts';
import { runChild } from './why/run-child.ts';

const scale = Number(process.env.WEFT_BENCH_SCALE ?? (QUICK ? '0.003' : '1'));
if (!(scale > 0)) throw new Error('WEFT_BENCH_SCALE must be a positive number');
const here = dirname(fileURLToPath(import.meta.url));
const realSessions = process.env.WEFT_FIXTURES
  ? join(process.env.WEFT_FIXTURES, 'real-sessions')
  : join(here, '..', '..', 'tests', 'fixtures', 'real-sessions');
const PUSHERS = 10;

function print(name: string, value: number, unit: string, digits = 1): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[sorted.length >> 1]!;
}

async function timed(items: string[], run: (item: string) => unknown): Promise<number> {
  const times: number[] = [];
  for (const item of items) {
    const started = performance.now();
    await run(item);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Ten machines' pushes at once, each its own process; resolves when all are done. */
function pushChild(indexPath: string, machine: string, url: string): Promise<void> {
  const loader = pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs'),
  ).href;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', loader, join(here, 'team', 'push-child.ts'), indexPath, machine],
      { env: { ...process.env, WEFT_DATABASE_URL: url }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`push ${machine} failed: ${err}`))));
  });
}

const workspace = mkdtempSync(join(tmpdir(), 'weft-team-bench-'));
const server = await startPostgres();
try {
  announceQuickMode();
  const corpus = generateCorpus({ directory: join(workspace, 'corpus'), targetBytes: 1e9 * scale, realSessions });
  const corpusMB = corpus.bytes / 1e6;
  print('corpus_MB', corpusMB, 'MB');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEFT_HOME: join(workspace, 'weft-home'),
    WEFT_SESSION_ROOTS: corpus.roots.join(delimiter),
    HOME: join(workspace, 'home'),
  };
  delete env.WEFT_DATABASE_URL;
  const indexed = runChild('index-child.ts', [], env);
  const sqliteSeconds = indexed.durationMs! / 1000;
  print('sqlite_index_MBps', indexed.bytesRead! / 1e6 / sqliteSeconds, 'MB/s');

  // The team index is this machine's index pushed: its rate counts the local index and the push.
  const index = WhyIndex.open({ env });
  await index.refresh();
  const teamUrl = await server.createDatabase('team_bench');
  const team = await PostgresIndex.open(teamUrl);
  let started = performance.now();
  const pushed = await team.push(index.database, { id: 'bench-0', name: 'bench-0', person: 'bench' });
  const pushSeconds = (performance.now() - started) / 1000;
  print('pg_push_s', pushSeconds, 's', 2);
  print('pg_index_MBps', indexed.bytesRead! / 1e6 / (sqliteSeconds + pushSeconds), 'MB/s');
  if (pushed.rows.turns !== indexed.turns)
    console.error(`warning: pushed ${pushed.rows.turns} of ${indexed.turns} turns`);

  const phrases = corpus.phrases
    .filter((_, at) => at % Math.max(1, Math.floor(corpus.phrases.length / 50)) === 0)
    .slice(0, 50);
  const paths = corpus.touchedPaths
    .filter((_, at) => at % Math.max(1, Math.floor(corpus.touchedPaths.length / 50)) === 0)
    .slice(0, 50);
  // One warm-up each, so the first timed query does not pay for cold pages.
  index.find(phrases[0]!);
  await team.findPhrase(phrases[0]!);
  const sqliteFind = await timed(phrases, (phrase) => index.find(phrase, { limit: 20 }));
  const pgFind = await timed(phrases, (phrase) => team.findPhrase(phrase, { limit: 20 }));
  const sqliteWhy = await timed(paths, (path) => index.why(path, { cwd: '/', limit: 20 }));
  const pgWhy = await timed(paths, (path) => team.why(resolveWhyTargets(path, { cwd: '/' }), { limit: 20 }));
  print('sqlite_find_p50_ms', sqliteFind, 'ms', 2);
  print('pg_find_p50_ms', pgFind, 'ms', 2);
  print('pg_find_vs_sqlite_ratio', pgFind / sqliteFind, 'x', 2);
  print('sqlite_why_p50_ms', sqliteWhy, 'ms', 2);
  print('pg_why_p50_ms', pgWhy, 'ms', 2);
  await team.close();

  // The same finds as a person's role with one grant, '/' (every turn, so the same answers), under row-level
  // security: through `weft_find_turns` (pg migration 007). The person holds no machine, so only the grant reads.
  const reader = await withTeamClient(teamUrl, async (client) => {
    const made = await initTeamDatabase(client, teamUrl, 'reader');
    await grantProject(client, 'reader', '/');
    return made.person!.url;
  });
  const asPerson = await PostgresIndex.open(reader);
  await asPerson.findPhrase(phrases[0]!);
  print(
    'pg_find_as_person_p50_ms',
    await timed(phrases, (phrase) => asPerson.findPhrase(phrase, { limit: 20 })),
    'ms',
    2,
  );
  await asPerson.close();

  // Ten machines pushing at once (the same index under ten machine ids, each its own process).
  const tenUrl = await server.createDatabase('team_bench_ten');
  started = performance.now();
  await Promise.all(Array.from({ length: PUSHERS }, (_, at) => pushChild(index.databasePath, `bench-${at}`, tenUrl)));
  const tenSeconds = (performance.now() - started) / 1000;
  print('ten_pushers_MBps', (PUSHERS * indexed.bytesRead!) / 1e6 / tenSeconds, 'MB/s');

  // 1 MB appended on one of the ten machines: its local refresh, then its push.
  corpus.appendTurns(1_000_000);
  started = performance.now();
  const refresh = await index.refresh();
  print('sqlite_append_ms', performance.now() - started, 'ms');
  if (refresh.appendReads !== 1) console.error(`warning: the append was read as ${refresh.fullReads} full reads`);
  const ten = await PostgresIndex.open(tenUrl);
  started = performance.now();
  const appended = await ten.push(index.database, { id: 'bench-3', name: 'bench-3', person: 'bench' });
  print('pg_push_append_ms', performance.now() - started, 'ms');
  print('pg_push_append_turns', appended.rows.turns ?? 0, 'turns', 0);
  await ten.close();
  index.close();
} finally {
  server.stop();
  if (!process.env.WEFT_BENCH_KEEP) rmSync(workspace, { recursive: true, force: true });
  else console.error(`kept ${workspace}`);
}
