// runtime/fs: WEFT_HOME, atomic writes, secrets, settings, durable canvas records and backups.
export { writeFileAtomic, nodeAtomicFileSystem } from './atomic-write.ts';
export type { AtomicFileSystem, AtomicWriteOptions } from './atomic-write.ts';
export { KeyedQueue } from './keyed-queue.ts';
export { resolveWeftHome, ensureWeftHome, canvasesDirectory } from './weft-home.ts';
export { parseDotenv, readDotenvFile } from './dotenv.ts';
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
export { CanvasRecords, assertCanvasId, describeIssues } from './canvas-records.ts';
export type { CanvasRecordsOptions } from './canvas-records.ts';
export { CanvasBackup, backupFileName } from './canvas-backup.ts';
export type { CanvasBackupOptions } from './canvas-backup.ts';
export { WeftError, isWeftError } from './weft-error.ts';
