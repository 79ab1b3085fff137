// Corpus generation for the why benchmark (benchmark/perf/why.bench.ts).
export { generateCorpus } from './generate-corpus.ts';
export type { Corpus, CorpusOptions } from './generate-corpus.ts';
export { CORPUS_TEMPLATES } from './corpus-templates.ts';
