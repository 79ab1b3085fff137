/**
 * Recall's relevance over the labelled set (issue 30.2), in a process of its own: copies the fixture sessions
 * stores the demo study canvas with its topic labels, indexes both, then plans every labelled question with the
 * "every project" switch on (from another canvas, medium ceiling, no judge, as `recall-child.ts` does).
 * Prints one JSON line: { questions, precisionAt5, recallAt10, planP50 }.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RECALL_SETTING, type TopicRecord } from '../../../protocol/index.ts';
import { emptyCanvasDocument, TestCanvas } from '../../../src/core/index.ts';
import { canvasesDirectory, CanvasStore } from '../../../runtime/fs/index.ts';
import { nodeHashPort } from '../../../runtime/hash/index.ts';
import { WhyIndex } from '../../../runtime/index/index.ts';
import { NO_DOSSIERS, planRecallFromIndex } from '../../../runtime/recall/index.ts';
import { DEMO_STUDY, DEMO_STUDY_CANVAS_ID } from './demo-study.ts';
import { LABELLED_QUESTIONS } from './labelled-questions.ts';
import { relevanceAt } from './relevance-at.ts';

const fixtures = process.env.WEFT_FIXTURES ?? fileURLToPath(new URL('../../../tests/fixtures', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'weft-recall-relevance-'));
// Copies of the fixture sessions and memory files (the index archives what it reads) and an empty Weft home.
const roots = ['real-sessions', 'sessions'].map((name) => {
  cpSync(join(fixtures, name), join(directory, 'roots', name), { recursive: true });
  return join(directory, 'roots', name);
});
const memoryRoot = join(directory, 'memory');
cpSync(join(fixtures, 'memory'), memoryRoot, { recursive: true });
const workspace = {
  weftHome: join(directory, 'weft-home'),
  env: {
    ...process.env,
    HOME: join(directory, 'home'),
    WEFT_HOME: join(directory, 'weft-home'),
    WEFT_SESSION_ROOTS: roots.join(delimiter),
    WEFT_MEMORY_ROOTS: memoryRoot,
  },
};
try {
  const study = new TestCanvas({
    document: emptyCanvasDocument({
      id: DEMO_STUDY_CANVAS_ID,
      name: 'Light, bread and bees',
      workingDirectory: null,
      createdAt: Date.UTC(2026, 10, 1),
    }),
  });
  const topics: TopicRecord = { format: 'weft.topics', topics: [], labels: [] };
  for (const subject of DEMO_STUDY) {
    const topicId = `topic-${subject.topic}`;
    topics.topics.push({ id: topicId, name: subject.topic, createdAt: 1 });
    for (const turn of subject.turns) {
      study.addQuestion(turn.question, { id: turn.id });
      const versionId = study.answer(turn.id, turn.answer);
      // As the labelling job labels a canvas turn: per version.
      topics.labels.push({
        turnKey: `canvas:${DEMO_STUDY_CANVAS_ID}#${turn.id}@${versionId}`,
        contentHash: 'demo',
        topicIds: [topicId],
        by: 'judge',
        at: 1,
      });
    }
  }
  mkdirSync(canvasesDirectory(workspace.weftHome), { recursive: true });
  const canvases = new CanvasStore({ directory: canvasesDirectory(workspace.weftHome) });
  await canvases.write(DEMO_STUDY_CANVAS_ID, study.document(), { baseRevision: null });

  const index = WhyIndex.open({ env: workspace.env });
  await index.index();
  const sources = {
    database: index.database,
    canvases: [study.document()],
    topics,
    dossiers: NO_DOSSIERS,
    judge: null,
    hash: nodeHashPort,
  };
  const request = (question: string) => ({
    question,
    canvasId: 'relevance-ask',
    workingDirectory: null,
    setting: { ...DEFAULT_RECALL_SETTING, enabled: true, global: true, ceiling: 'medium' as const },
    contextWindow: 200_000,
  });
  await planRecallFromIndex(sources, request(LABELLED_QUESTIONS[0]!.question));
  const precision: number[] = [];
  const recall: number[] = [];
  const times: number[] = [];
  const misses: string[] = [];
  for (const labelled of LABELLED_QUESTIONS) {
    const started = performance.now();
    const plan = await planRecallFromIndex(sources, request(labelled.question));
    times.push(performance.now() - started);
    const figures = relevanceAt(plan, labelled.expected);
    precision.push(figures.precisionAt5);
    recall.push(figures.recallAt10);
    if (figures.precisionAt5 < 1 || figures.recallAt10 < 1)
      misses.push(
        `${labelled.question} → p@5 ${figures.precisionAt5.toFixed(2)} r@10 ${figures.recallAt10.toFixed(2)}: ${plan.items
          .slice(0, 5)
          .map((item) => item.id.slice(0, 48))
          .join(', ')}`,
      );
  }
  index.close();
  if (process.env.WEFT_RELEVANCE_MISSES) for (const miss of misses) console.error(miss);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const sorted = [...times].sort((left, right) => left - right);
  console.log(
    JSON.stringify({
      questions: LABELLED_QUESTIONS.length,
      precisionAt5: mean(precision),
      recallAt10: mean(recall),
      planP50: sorted[Math.floor(sorted.length / 2)]!,
    }),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
