/**
 * `npm run bench:import`: a synthetic ChatGPT `conversations.json` of 200 MB (`WEFT_BENCH_QUICK=1`: 4 MB) imported
 * in a child process, so its peak RSS is the import's own (target: `import_peak_rss_MB` ≤ 300 for 200 MB: the file
 * streams, it is never in memory at once). Prints `name: value unit` lines; figures go to benchmark/perf/README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeSyntheticChatgptExport } from '../../tests/support/index.ts';
import { announceQuickMode, scale } from './quick-mode.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const tsxLoader = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs'),
).href;

function print(name: string, value: number, unit: string, digits = 1): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

const workspace = mkdtempSync(join(tmpdir(), 'weft-import-bench-'));
try {
  announceQuickMode();
  print('nproc', availableParallelism(), 'cores', 0);
  print('load_average_1m', loadavg()[0]!, 'load', 2);
  const file = join(workspace, 'conversations.json');
  const generated = await writeSyntheticChatgptExport(file, { targetBytes: scale(200, 4) * 1024 * 1024 });
  print('export_MB', generated.bytes / 1024 / 1024, 'MB');
  print('export_conversations', generated.conversations, 'conversations', 0);
  const child = spawnSync(
    process.execPath,
    ['--import', tsxLoader, join(here, 'import', 'import-child.ts'), file, join(workspace, 'home')],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`import child failed: ${child.stderr}`);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
  const seconds = result.durationMs! / 1000;
  print('import_s', seconds, 's', 2);
  print('import_MBps', result.bytes! / 1024 / 1024 / seconds, 'MB/s', 2);
  print('import_peak_rss_MB', result.maxRssKB! / 1024, 'MB');
  print('import_canvases', result.canvases!, 'canvases', 0);
  print('import_questions', result.questions!, 'questions', 0);
  print('import_versions', result.versions!, 'versions', 0);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
