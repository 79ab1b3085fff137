// src/ui/db: the versioned Dexie schema and per-record persistence of canvases.
export { WeftDatabase, DATABASE_NAME, dismissalKey, ledgerKey } from './weft-database.ts';
export type {
  CanvasRow,
  NodeRow,
  WireRow,
  AttachmentRow,
  EventRow,
  DismissalRow,
  LedgerRow,
  SettingRow,
} from './weft-database.ts';
export {
  writeCanvasChanges,
  loadCanvasDocument,
  deleteCanvasRows,
  diffRecords,
  persistenceCounters,
} from './canvas-persistence.ts';
export { recordsFromDocument, documentFromRecords } from './canvas-records.ts';
export type { CanvasRecords } from './canvas-records.ts';
export { CanvasWriter } from './canvas-writer.ts';
export type { CanvasWriterOptions } from './canvas-writer.ts';
export { pauseForPage } from './pause-for-page.ts';
export { fillCanvasRows } from './fill-canvas-rows.ts';
export { exactRevision, markRevisionExact, storedRevision, rememberRevision } from './canvas-persistence.ts';
export type { DurableSaved } from './canvas-writer.ts';
export { acknowledgePending, claimPending, countPending } from './pending-queue.ts';
export type { PendingRow } from './weft-database.ts';
