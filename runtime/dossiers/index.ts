// runtime/dossiers: the dossier store on disk and the runs that write it (C15).
export { DossierStore, openDossierStore } from './dossier-store.ts';
export type { DossierStoreOptions, DossierWrite, StoredVersion } from './dossier-store.ts';
export { dossierDatabasePath, DOSSIER_BUSY_MS } from './dossier-database.ts';
export { liveSentences, retiredSentences } from '../../src/core/dossiers/index.ts';
