// runtime/dossiers: the dossier store on disk and the runs that write it (C15).
export { DossierStore, openDossierStore } from './dossier-store.ts';
export { SentenceProposals } from './sentence-proposals.ts';
export type { DossierStoreOptions, DossierWrite, StoredVersion } from './dossier-store.ts';
export { dossierDatabasePath, DOSSIER_BUSY_MS } from './dossier-database.ts';
export { liveSentences, retiredSentences } from '../../src/core/dossiers/index.ts';
export { readDossierTurns, liveTurnKeys, citedKnownAs, canvasKeyParts } from './dossier-turns.ts';
export type { TurnSources } from './dossier-turns.ts';
export { planDossierRun, runDossier, sentenceStruck, DOSSIER_TIMEOUT_MS } from './dossier-run.ts';
export type { DossierModel, DossierRunContext } from './dossier-run.ts';
export { fileProjectFacts } from './file-project-facts.ts';
export { readTopicDossier, listTopicSummaries } from './topic-dossier.ts';
export { readLocalMemory } from './local-memory.ts';
export type { TopicDossier, TopicSummary } from './topic-dossier.ts';
