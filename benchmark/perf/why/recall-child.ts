/**
 * Plans recall (C16) for a set of questions in a fresh process over an index built by `index-child.ts`: terms,
 * candidates, ranking and the budgeted block, no judge. Input: a JSON file named by argv[2] with { questions }.
 * Prints one JSON line: { planP50, planP95, empty, maxRssKB }.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_RECALL_SETTING, type TopicRecord } from '../../../protocol/index.ts';
import { WhyIndex } from '../../../runtime/index/index.ts';
import { nodeHashPort } from '../../../runtime/hash/index.ts';
import { NO_DOSSIERS, planRecallFromIndex } from '../../../runtime/recall/index.ts';

const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { questions: string[] };
const topics: TopicRecord = { format: 'weft.topics', topics: [], labels: [] };

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const index = WhyIndex.open({ env: process.env });
await index.refresh();
// The server passes the OpenSSL hash port too (the block's hash is part of the plan).
const sources = {
  database: index.database,
  canvases: [],
  topics,
  dossiers: NO_DOSSIERS,
  judge: null,
  hash: nodeHashPort,
};
// Global (every project): the widest candidate set, so the figure is the worst case of the scope switch.
const request = (question: string) => ({
  question,
  canvasId: 'bench-canvas',
  workingDirectory: null,
  setting: { ...DEFAULT_RECALL_SETTING, enabled: true, global: true, ceiling: 'medium' as const },
  contextWindow: 200_000,
});
await planRecallFromIndex(sources, request(input.questions[0]!));
const times: number[] = [];
let empty = 0;
for (const question of input.questions) {
  const started = performance.now();
  const plan = await planRecallFromIndex(sources, request(question));
  times.push(performance.now() - started);
  if (plan.items.length === 0) empty += 1;
}
index.close();
console.log(
  JSON.stringify({
    planP50: percentile(times, 0.5),
    planP95: percentile(times, 0.95),
    empty,
    maxRssKB: process.resourceUsage().maxRSS,
  }),
);
