/**
 * `npm run bench:dossier` (C15): `dossier_citation_check_ms`, the median time to validate a model's 100-sentence
 * structured dossier answer against its schema, check every citation against the keys the model was shown and number
 * the version — the run's own path, `dossierFromAnswer` (target ≤ 5),
 * and `dossier_live_sentences_ms`, recall's filter of the same dossier. `WEFT_BENCH_QUICK=1`: fewer rounds, same
 * names. Prints `name: value unit` lines; figures go to benchmark/perf/README.md.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DossierAnswerSchema, DOSSIER_SECTIONS } from '../../protocol/index.ts';
import { dossierFromAnswer, liveSentences } from '../../src/core/dossiers/index.ts';
import { announceQuickMode, scale } from './quick-mode.ts';

function print(name: string, value: number, unit: string, digits = 3): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

announceQuickMode();
print('cores', availableParallelism(), 'cores', 0);
print('load_average_1m', loadavg()[0]!, 'load', 2);

// 40 shown turns; 100 sentences of two or three citations each, every tenth citing a key the model was not shown.
const shown = new Set(Array.from({ length: 40 }, (_, index) => `claude-code:session-${index % 7}#${index + 1}`));
const keys = [...shown];
const sections: Record<string, { text: string; citations: string[] }[]> = {
  what: [],
  decisions: [],
  status: [],
  open: [],
};
for (let index = 0; index < 100; index += 1)
  sections[DOSSIER_SECTIONS[index % 4]!]!.push({
    text: `Sentence ${index}: the storage layer keeps canvases in IndexedDB through Dexie, migrated by schema versions.`,
    citations: [
      keys[index % 40]!,
      keys[(index * 7) % 40]!,
      ...(index % 10 === 0 ? [`codex:invented-${index}#1`] : [keys[(index * 3) % 40]!]),
    ],
  });

const rounds = scale(2000, 50);
const check: number[] = [];
const context = { topicId: 't', current: null, latestVersion: 0, shown, now: 1 };
let written = dossierFromAnswer(DossierAnswerSchema.parse(sections), { ...context, newId: () => 'x' });
for (let round = 0; round < rounds; round += 1) {
  let id = 0;
  const started = performance.now();
  written = dossierFromAnswer(DossierAnswerSchema.parse(sections), { ...context, newId: () => `s${id++}` });
  check.push(performance.now() - started);
}
print('dossier_sentences', 100, 'sentences', 0);
print('dossier_dropped_sentences', written.dropped.length, 'sentences', 0);
print('dossier_citation_check_ms', median(check), 'ms');

const gone = new Set(keys.slice(0, 20));
const live: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const started = performance.now();
  liveSentences(written.dossier, (key) => !gone.has(key));
  live.push(performance.now() - started);
}
print('dossier_live_sentences_ms', median(live), 'ms');
