/**
 * Recall performance (C16; see README.md, "## Recall"). Prints one `name: value unit` per line.
 * Generates the why corpus (`bench:why`'s generator, about 1 GB; `WEFT_BENCH_SCALE` to change), indexes it in a
 * child process, then plans recall for 50 questions written around the corpus's rare phrases in a fresh process:
 * terms → candidates → ranked, budgeted block, no judge. Then relevance (issue 30.2): precision@5 and recall@10 over
 * the labelled set (`recall-relevance/`: the fixture sessions and a demo study), the same in quick mode. Run with
 * `npm run bench:recall` (`WEFT_BENCH_QUICK=1`: a 3 MB corpus, seconds).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { announceQuickMode, QUICK } from './quick-mode.ts';
import { generateCorpus } from './why/generate-corpus.ts';
import { runChild } from './why/run-child.ts';
import { recallQuestions } from './recall-questions.ts';

const scale = Number(process.env.WEFT_BENCH_SCALE ?? (QUICK ? '0.003' : '1'));
if (!(scale > 0)) throw new Error('WEFT_BENCH_SCALE must be a positive number');
const here = dirname(fileURLToPath(import.meta.url));
const realSessions = join(here, '..', '..', 'tests', 'fixtures', 'real-sessions');
function print(name: string, value: number, unit: string, digits = 1): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

const workspace = mkdtempSync(join(tmpdir(), 'weft-recall-bench-'));
try {
  announceQuickMode();
  const corpus = generateCorpus({ directory: join(workspace, 'corpus'), targetBytes: 1e9 * scale, realSessions });
  print('corpus_MB', corpus.bytes / 1e6, 'MB');
  print('corpus_turns', corpus.turns, 'turns', 0);
  const env = {
    ...process.env,
    WEFT_HOME: join(workspace, 'weft-home'),
    WEFT_SESSION_ROOTS: corpus.roots.join(delimiter),
    HOME: join(workspace, 'home'),
  };
  runChild('index-child.ts', [], env);
  const questions = recallQuestions(corpus.phrases);
  const input = join(workspace, 'recall-questions.json');
  writeFileSync(input, JSON.stringify({ questions }));
  const planned = runChild('recall-child.ts', [input], env);
  if (planned.empty) console.error(`warning: ${planned.empty} of ${questions.length} plans came back empty`);
  print('recall_questions', questions.length, 'questions', 0);
  print('recall_plan_p50_ms', planned.planP50!, 'ms', 2);
  print('recall_plan_p95_ms', planned.planP95!, 'ms', 2);
  print('recall_peak_rss_MB', planned.maxRssKB! / 1024, 'MB');
  // Relevance needs answers a person wrote down, so it is measured over the labelled set, not the generated corpus.
  const relevance = runChild('../recall-relevance/relevance-child.ts', [], process.env);
  print('recall_relevance_questions', relevance.questions!, 'questions', 0);
  print('recall_precision_at_5', relevance.precisionAt5!, 'ratio', 3);
  print('recall_recall_at_10', relevance.recallAt10!, 'ratio', 3);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
