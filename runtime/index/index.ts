// Public API of the why index (C21–C23): the CLI, the MCP server and the app's server call these.
export { WhyIndex, purgeIndex, purgeArchive } from './why-index.ts';
export type { WhyIndexOptions } from './why-index.ts';
export { createAtlasCatalog } from './atlas-catalog.ts';
export type { AtlasCatalogOptions } from './atlas-catalog.ts';
export type { CatalogFile, MemoryFile, MemoryListRequest, SessionCatalog, SessionFileRead } from './session-catalog.ts';
export { updateIndex } from './update-index.ts';
export type { IndexProgress, UpdateOptions, UpdateSummary } from './update-index.ts';
export { queryWhy, hasWhyHistory } from './why-query.ts';
export { PostgresIndex, safeLocation } from './postgres-index.ts';
export { sqliteReader, postgresReader } from './index-reader.ts';
export type { IndexReader, TeamMemory } from './index-reader.ts';
export type { SessionTurnRow } from './postgres-memory.ts';
export type { PushOptions, PushSummary } from './push-index-to-postgres.ts';
export type { LocalMemory, MemoryPushSummary } from './push-memory-to-postgres.ts';
export { readMachineIdentity } from './machine-identity.ts';
export type { MachineIdentity } from './machine-identity.ts';
export { migratePostgres, readPgMigrations } from './migrate-postgres.ts';
export {
  initTeamDatabase,
  grantProject,
  revokeProject,
  listGrants,
  projectName,
  withTeamClient,
} from './team-roles.ts';
export type { TeamInit } from './team-roles.ts';
export type { TeamOverview } from './team-overview.ts';
export type { WhyHit, WhyOptions, WhyResult } from './why-query.ts';
export { resolveWhyTarget, resolveWhyTargets, findGitRoot } from './why-target.ts';
export type { WhyTarget, WhyTargetOptions } from './why-target.ts';
export { findPhrase, ftsPhrase } from './find-query.ts';
export type { FindField, FindHit, FindOptions } from './find-query.ts';
export { recallTurn } from './recall-query.ts';
export type { RecalledTurn, RecallRequest } from './recall-query.ts';
export { readIndexStatus, readSourceRecords } from './index-status.ts';
export type { IndexStatus, SourceReadRecord } from './index-status.ts';
export { formatParseTotals } from './format-parse-totals.ts';
export type { FileParseReport, ParseTotals } from './parse-totals.ts';
export { indexCanvas, readCanvasRecord, canvasTurnKey } from './index-canvas.ts';
export type { IndexedCanvas, MaterialRow } from './index-canvas.ts';
export type { ArchiveStatus } from './index-status.ts';
export { SessionArchive, ARCHIVE_RUNNERS } from './session-archive.ts';
export type { ArchiveEntry } from './session-archive.ts';
export { verifyArchive, readLastVerification } from './archive-verify.ts';
export type { ArchiveVerification, BadCopy } from './archive-verify.ts';
export { exportArchivedCopy, resolveExportFolder } from './archive-export.ts';
export type { ExportedCopy } from './archive-export.ts';
export { readArchiveSettings, archiveKeeps } from './archive-settings.ts';
export type { IndexedSession, IndexedTurn } from './session-rows.ts';
export { MAXIMUM_TEXT_CHARACTERS } from './session-rows.ts';
export { openIndexDatabase } from './open-index-database.ts';
export type { IndexDatabase } from './open-index-database.ts';
export { INDEX_SCHEMA_VERSION } from './index-schema.ts';
export { IndexError } from './index-error.ts';
export type { IndexErrorCode } from './index-error.ts';
export { resolveWeftHome, indexDatabasePath, canvasesDirectory } from '../fs/index.ts';
export { canvasKeyParts, turnKeySources, type TurnKeySources } from './turn-key-sources.ts';
