/**
 * Answers `find` and `why` queries in a fresh process (as `weft find` / the MCP server would) and reports
 * latencies and this process's peak RSS. Input: a JSON file named by argv[2] with { phrases, commonPhrases, paths }.
 */
import { readFileSync } from 'node:fs';
import { WhyIndex } from '../../../runtime/index/index.ts';

const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  phrases: string[];
  commonPhrases: string[];
  paths: string[];
};

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

function timeEach<T>(items: T[], run: (item: T) => unknown): { times: number[]; empty: number } {
  const times: number[] = [];
  let empty = 0;
  for (const item of items) {
    const started = performance.now();
    const result = run(item) as unknown[] | { hits: unknown[] };
    times.push(performance.now() - started);
    if ((Array.isArray(result) ? result : result.hits).length === 0) empty += 1;
  }
  return { times, empty };
}

const index = WhyIndex.open({ env: process.env });
const statStarted = performance.now();
const refresh = await index.refresh();
const statPassMs = performance.now() - statStarted;
// One warm-up query so the first timed one does not pay for opening pages of the file.
index.find(input.phrases[0]!);
const find = timeEach(input.phrases, (phrase) => index.find(phrase, { limit: 20 }));
const common = timeEach(input.commonPhrases, (phrase) => index.find(phrase, { limit: 20 }));
const why = timeEach(input.paths, (path) => index.why(path, { cwd: '/', limit: 20 }));
index.close();
console.log(
  JSON.stringify({
    statPassMs,
    filesSeen: refresh.files,
    filesRead: refresh.fullReads + refresh.appendReads,
    findP50: percentile(find.times, 0.5),
    findP95: percentile(find.times, 0.95),
    findEmpty: find.empty,
    commonFindP50: percentile(common.times, 0.5),
    whyP50: percentile(why.times, 0.5),
    whyP95: percentile(why.times, 0.95),
    whyEmpty: why.empty,
    maxRssKB: process.resourceUsage().maxRSS,
  }),
);
