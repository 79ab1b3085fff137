/**
 * Plans recall for a set of questions in a fresh process, each question twice in turn: with no tombstones and with
 * `tombstones` of them in force (random content keys, plus the questions of every 100th indexed session turn, so the
 * check also leaves real candidates out). Input: a JSON file named by argv[2] with { questions, tombstones }.
 * Prints one JSON line: { planP50, withTombstonesP50, putAsideOmitted }.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_RECALL_SETTING, type TopicRecord } from '../../../protocol/index.ts';
import { contentKey } from '../../../src/core/index.ts';
import { WhyIndex } from '../../../runtime/index/index.ts';
import { nodeHashPort } from '../../../runtime/hash/index.ts';
import { NO_DOSSIERS, planRecallFromIndex } from '../../../runtime/recall/index.ts';

const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { questions: string[]; tombstones: number };
const topics: TopicRecord = { format: 'weft.topics', topics: [], labels: [] };
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

const index = WhyIndex.open({ env: process.env });
await index.refresh();
const sampled = index.database.prepare(`SELECT user_text AS text FROM turns WHERE id % 100 = 0`).all() as {
  text: string;
}[];
const tombstones = new Set(sampled.map((row) => contentKey('session-turn', row.text, nodeHashPort)));
for (let seed = 0; tombstones.size < input.tombstones; seed++)
  tombstones.add(contentKey('canvas-turn', `a question put aside ${seed}`, nodeHashPort));
const base = { database: index.database, canvases: [], topics, dossiers: NO_DOSSIERS, judge: null, hash: nodeHashPort };
const request = (question: string) => ({
  question,
  canvasId: 'bench-canvas',
  workingDirectory: null,
  setting: { ...DEFAULT_RECALL_SETTING, enabled: true, global: true, ceiling: 'medium' as const },
  contextWindow: 200_000,
});
await planRecallFromIndex(base, request(input.questions[0]!));
await planRecallFromIndex({ ...base, putAsides: tombstones }, request(input.questions[0]!));
const without: number[] = [];
const withTombstones: number[] = [];
let putAsideOmitted = 0;
for (const question of input.questions) {
  let started = performance.now();
  await planRecallFromIndex(base, request(question));
  without.push(performance.now() - started);
  started = performance.now();
  const plan = await planRecallFromIndex({ ...base, putAsides: tombstones }, request(question));
  withTombstones.push(performance.now() - started);
  putAsideOmitted += plan.omitted.filter((omission) => omission.reason === 'put-aside').length;
}
index.close();
console.log(JSON.stringify({ planP50: median(without), withTombstonesP50: median(withTombstones), putAsideOmitted }));
