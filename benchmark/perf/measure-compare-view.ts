// `compare_view_open_ms` for bench:compare (issue 31, part 2): a question whose model set answered 32 times (8 models
// × 4 samples, 2,000 words each) opened in the real app in headless Chromium, then its Compare view opened.
import type { CanvasDocument, QuestionNode, Version } from '../../protocol/index.ts';
import { scale } from './quick-mode.ts';
import { openApp, putCanvas } from './ui-app.ts';
import { chainCanvas } from './ui-canvas.ts';
import { openFromServer, openPanel, percentile } from './ui-measure.ts';

const WORDS = 2_000;
const CONTEXT_HASH = 'c'.repeat(64);
const VOCABULARY = 'the sky scatters light blue because shorter wavelengths bend more strongly in air than red'.split(
  ' ',
);

/**
 * One answer of `WORDS` words: the same wording for every answer but one word in ten, which depends on the answer
 * (answers of one context overlap heavily; the diff against the base marks about a tenth of each).
 */
function answerText(answer: number): string {
  const words: string[] = [];
  for (let index = 0; index < WORDS; index += 1)
    words.push(index % 10 === answer % 10 ? `w${answer}x${index}` : VOCABULARY[index % VOCABULARY.length]!);
  return words.join(' ');
}

/** The canvas: a one-question chain whose question carries the set's `models × samples` answers as versions. */
export function compareCanvas(
  id: string,
  models: number,
  samples: number,
): { document: CanvasDocument; nodeId: string } {
  const document = chainCanvas(id, 1, 1);
  const node = document.nodes[0] as QuestionNode;
  const template = node.versions[0]!;
  const names = Array.from({ length: models }, (_, index) => `bench/bench-${index + 1}`);
  const versions: Version[] = [];
  for (const [m, model] of names.entries())
    for (let sample = 1; sample <= samples; sample += 1) {
      const answer = m * samples + sample - 1;
      versions.push({
        ...template,
        id: `${id}-answer-${answer}`,
        text: answerText(answer),
        model,
        setAnswer: {
          setId: `${id}-set`,
          model,
          sample,
          temperature: 0.2,
          contextHash: CONTEXT_HASH,
          usage: { latencyMs: 900 + answer, inputTokens: 3_866, outputTokens: 2_600, costUsd: null },
        },
      });
    }
  const asked: QuestionNode = {
    ...node,
    versions,
    currentVersionId: versions[0]!.id,
    modelSet: { models: names, samples, temperature: 0.2 },
  };
  return { document: { ...document, nodes: [asked] }, nodeId: node.id };
}

/**
 * Median over `runs` opens of ms from the Compare button's click to the frame after the dialog's columns are in the
 * DOM (the page closes the view between runs). The question's panel is open first, as a person would have it.
 */
export async function measureCompareView(models: number, samples: number): Promise<number> {
  const app = await openApp();
  try {
    const { document: canvas, nodeId } = compareCanvas('bench-compare', models, samples);
    await putCanvas(app, canvas);
    await openFromServer(app.page, 'bench-compare');
    await openPanel(app.page, nodeId);
    const opens: number[] = [];
    for (let run = 0; run < scale(5, 1); run += 1) {
      opens.push(
        await app.page.evaluate(async () => {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const started = performance.now();
          (document.querySelector('[data-testid="compare-set"]') as HTMLButtonElement).click();
          while (!document.querySelector('[data-testid="set-compare-dialog"] [data-testid="set-answer"]'))
            await new Promise((resolve) => requestAnimationFrame(resolve));
          await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
          const elapsed = performance.now() - started;
          (document.querySelector('[data-testid="set-compare-close"]') as HTMLButtonElement).click();
          return elapsed;
        }),
      );
      await app.page.getByTestId('set-compare-dialog').waitFor({ state: 'detached' });
    }
    return percentile(opens, 0.5);
  } finally {
    await app.close();
  }
}
