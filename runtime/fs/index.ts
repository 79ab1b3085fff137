// runtime/fs: WEFT_HOME, atomic writes, secrets, settings, durable canvas records and backups.
export { writeFileAtomic, nodeAtomicFileSystem } from './atomic-write.ts';
export { writeFileAtomicSync } from './atomic-write-sync.ts';
export type { AtomicFileSystem, AtomicWriteOptions } from './atomic-write.ts';
export { KeyedQueue } from './keyed-queue.ts';
export {
  resolveWeftHome,
  ensureWeftHome,
  ensurePrivateDirectory,
  canvasesDirectory,
  indexDatabasePath,
} from './home/index.ts';
export { readDotenvFile, environmentWithDotenv } from './dotenv.ts';
export { JsonFileStore } from './json-file-store.ts';
export { SecretsStore } from './secrets-store.ts';
export type { SecretsCipher } from './secrets-store.ts';
export {
  SettingsStore,
  StoredSettingsSchema,
  StoredProviderSchema,
  SessionArchiveSettingsSchema,
  defaultSessionArchiveSettings,
  emptySettings,
} from './settings-store.ts';
export type { StoredSettings, StoredProvider, SessionArchiveSettings } from './settings-store.ts';
export { CanvasStore, assertCanvasId, canvasRevision } from './canvas-store.ts';
export { describeIssues } from './parse-canvas-record.ts';
export type { CanvasStoreOptions, StoredCanvas, CanvasVerification } from './canvas-store.ts';
export { ChainHeadFiles, chainHeadOf } from './chain-head-files.ts';
export { AnchorsJournal, journalDifference } from './anchors-journal.ts';
export type { Anchor, JournalVerdict } from './anchors-journal.ts';
export { assertEventPrefix, differenceFromHead } from './event-prefix.ts';
export { CanvasBackup, backupFileName } from './canvas-backup.ts';
export type { CanvasBackupOptions } from './canvas-backup.ts';
export { resolveBackupFolder, realPathOf } from './backup-folder-guard.ts';
export type { ProtectedFolder } from './backup-folder-guard.ts';
export { realPathOfNearest } from './home/index.ts';
export { removeOrphanTemps } from './orphan-temps.ts';
export { assertNoServerRunning, readServerFile, removeOwnServerFile, writeServerFile } from './server-file.ts';
export { CommitLedger, commitLedgerDirectory } from './commit-ledger.ts';
export type { CommitFields, LedgerCommit } from './commit-ledger.ts';
export { PutAsideStore, readPutAsides, putAsidePath } from './put-aside-store.ts';
export type { PutAsideEvent, PutAsideChange, PutAsideOrigin } from './put-aside-store.ts';
export { recordCanvasPutAsides } from './record-canvas-put-asides.ts';
