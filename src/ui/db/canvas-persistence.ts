import type { CanvasDocument } from '../../../protocol/index.ts';
import { CANVAS_FORMAT, CANVAS_VERSION } from '../../../protocol/index.ts';
import { dismissalKey, ledgerKey, type PendingRow, type WeftDatabase } from './weft-database.ts';
import type { CanvasRecords } from './canvas-records.ts';
import { changedEventPacks, changedKeyedPacks, unpack, type PackChanges, type PackKind } from './canvas-packs.ts';
import { diffRecords } from './record-diff.ts';

export { diffRecords } from './record-diff.ts';

/** True when two snapshots hold the very same record objects (so rows written as one are the other). */
export function sameRecords(left: CanvasRecords, right: CanvasRecords): boolean {
  if (left.canvas !== right.canvas || left.events.length !== right.events.length) return false;
  if (left.events.some((event, index) => right.events[index] !== event)) return false;
  const unchanged = <T>(a: Iterable<T>, b: Iterable<T>, keyOf: (item: T) => string) => {
    const { put, remove } = diffRecords(a, b, keyOf);
    return put.length === 0 && remove.length === 0;
  };
  return (
    unchanged(left.nodes, right.nodes, (node) => node.id) &&
    unchanged(left.wires, right.wires, (wire) => wire.id) &&
    unchanged(left.attachments, right.attachments, (attachment) => attachment.hash) &&
    unchanged(left.dismissals, right.dismissals, dismissalKey) &&
    unchanged(left.ledgers, right.ledgers, ledgerKey)
  );
}

/** Counts rows written, so tests and `bench:ui` can hold the per-edit write budget. */
export const persistenceCounters = { rowsWritten: 0, flushes: 0 };

/**
 * Writes the rows that differ between two snapshots of one canvas in one transaction.
 * `previous = null` writes everything (first save, import, duplicate). `revision`: the rows now stand for that
 * durable revision (an adopted record), noted in the same transaction — `exact` when they hold exactly its record;
 * without it, a write leaves the rows matching no revision exactly (a local edit), so a reload's first save sends the
 * whole canvas. `queued`: the pending steps (`pending-queue.ts`) these rows now hold, stored in the same transaction,
 * so the rows never hold a step the queue lacks nor the queue one the rows lack.
 */
export async function writeCanvasChanges(
  database: WeftDatabase,
  previous: CanvasRecords | null,
  next: CanvasRecords,
  now: number,
  /** The revision these rows now stand for (written in their transaction); exact unless told otherwise. */
  revision?: string,
  exact = revision !== undefined,
  queued: readonly PendingRow[] = [],
): Promise<number> {
  const canvasId = next.canvas.id;
  const packs: [PackKind, PackChanges][] = [
    ['nodes', changedKeyedPacks(canvasId, 'nodes', previous?.nodes ?? null, next.nodes)],
    ['wires', changedKeyedPacks(canvasId, 'wires', previous?.wires ?? null, next.wires)],
    // The durable record guards the log (append-only); these packs mirror it. After adopting a newer record or a
    // rebase, events this copy had but the record does not are dropped, so a reload reads the record's log.
    ['events', changedEventPacks(canvasId, previous?.events ?? null, next.events)],
  ];
  const attachments = diffRecords(previous?.attachments ?? null, next.attachments, (attachment) => attachment.hash);
  const dismissals = diffRecords(previous?.dismissals ?? null, next.dismissals, dismissalKey);
  const ledgers = diffRecords(previous?.ledgers ?? null, next.ledgers, ledgerKey);
  const nodeCount = [...next.nodes].length;
  const touched =
    packs.reduce((sum, [, changes]) => sum + changes.put.length + changes.remove.length, 0) +
    attachments.put.length +
    dismissals.put.length +
    dismissals.remove.length +
    ledgers.put.length +
    ledgers.remove.length;
  const metaChanged = !previous || previous.canvas !== next.canvas;
  if (touched === 0 && !metaChanged && queued.length === 0) {
    if (revision !== undefined) await rememberRevision(database, canvasId, revision, exact);
    return 0;
  }
  let written = 0;
  await database.transaction(
    'rw',
    [
      database.canvases,
      database.packs,
      database.attachments,
      database.dismissals,
      database.ledgers,
      database.revisions,
      database.pending,
    ],
    async () => {
      await noteRowsWritten(database, canvasId, revision, exact);
      if (queued.length) await database.pending.bulkAdd([...queued]);
      // A whole write replaces every pack the canvas had (a bucket it no longer fills must not keep old records).
      if (!previous) await database.packs.where('canvasId').equals(canvasId).delete();
      await database.canvases.put({ id: canvasId, meta: next.canvas, updatedAt: now, nodeCount });
      written += 1;
      for (const [kind, changes] of packs) {
        if (changes.put.length) await database.packs.bulkPut(changes.put);
        if (changes.remove.length)
          await database.packs.bulkDelete(
            changes.remove.map((bucket) => [canvasId, kind, bucket] as [string, string, number]),
          );
      }
      for (const { key, record } of attachments.put) {
        const existing = await database.attachments.get(key);
        const canvasIds = existing ? [...new Set([...existing.canvasIds, canvasId])] : [canvasId];
        await database.attachments.put({ hash: key, record, canvasIds });
      }
      if (dismissals.put.length)
        await database.dismissals.bulkPut(dismissals.put.map(({ key, record }) => ({ canvasId, id: key, record })));
      if (dismissals.remove.length)
        await database.dismissals.bulkDelete(dismissals.remove.map((key) => [canvasId, key] as [string, string]));
      if (ledgers.put.length)
        await database.ledgers.bulkPut(ledgers.put.map(({ key, record }) => ({ canvasId, id: key, record })));
      if (ledgers.remove.length)
        await database.ledgers.bulkDelete(ledgers.remove.map((key) => [canvasId, key] as [string, string]));
      written += touched;
    },
  );
  persistenceCounters.rowsWritten += written;
  persistenceCounters.flushes += 1;
  return written;
}

/** Reads one canvas back as a document; null when IndexedDB does not hold it. */
export async function loadCanvasDocument(database: WeftDatabase, canvasId: string): Promise<CanvasDocument | null> {
  const canvasRow = await database.canvases.get(canvasId);
  if (!canvasRow) return null;
  const [packs, dismissals, ledgers, attachments] = await Promise.all([
    database.packs.where('canvasId').equals(canvasId).toArray(),
    database.dismissals.where('canvasId').equals(canvasId).toArray(),
    database.ledgers.where('canvasId').equals(canvasId).toArray(),
    database.attachments.where('canvasIds').equals(canvasId).toArray(),
  ]);
  const { nodes, wires, events } = unpack(packs);
  return {
    format: CANVAS_FORMAT,
    version: CANVAS_VERSION,
    canvas: canvasRow.meta,
    nodes: nodes.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1)),
    wires: wires.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1)),
    attachments: attachments.map((row) => row.record),
    dismissals: dismissals.map((row) => row.record),
    ledgers: ledgers.map((row) => row.record),
    events,
  };
}

/** Removes a canvas and every row it owns; shared attachments stay for the other canvases. */
export async function deleteCanvasRows(database: WeftDatabase, canvasId: string): Promise<void> {
  await database.transaction(
    'rw',
    [
      database.canvases,
      database.packs,
      database.attachments,
      database.dismissals,
      database.ledgers,
      database.revisions,
      database.pending,
    ],
    async () => {
      await database.canvases.delete(canvasId);
      await database.revisions.delete(canvasId);
      // A deleted canvas's unsaved steps have nothing to land on.
      for (const table of [database.packs, database.dismissals, database.ledgers, database.pending]) {
        await table.where('canvasId').equals(canvasId).delete();
      }
      const shared = await database.attachments.where('canvasIds').equals(canvasId).toArray();
      for (const row of shared) {
        const canvasIds = row.canvasIds.filter((id) => id !== canvasId);
        if (canvasIds.length === 0) await database.attachments.delete(row.hash);
        else await database.attachments.put({ ...row, canvasIds });
      }
    },
  );
}

/** The durable revision a canvas's rows match (null when unknown: never saved, or saved by an older Weft). */
export async function storedRevision(database: WeftDatabase, canvasId: string): Promise<string | null> {
  return (await database.revisions.get(canvasId))?.revision ?? null;
}

/** The durable revision whose record the rows are exactly, or null (rows ahead of it, or never marked exact). */
export async function exactRevision(database: WeftDatabase, canvasId: string): Promise<string | null> {
  const row = await database.revisions.get(canvasId);
  return row?.exact === true ? row.revision : null;
}

/** `exact`: the rows are exactly this revision's record (see `RevisionRow.exact`); otherwise only in step with it. */
export async function rememberRevision(
  database: WeftDatabase,
  canvasId: string,
  revision: string,
  exact = false,
): Promise<void> {
  await database.revisions.put({ canvasId, revision, ...(exact ? { exact } : {}) });
}

/**
 * A saved state's rows are exactly revision `revision`: marked so only if the revisions row still names it (a newer
 * record adopted meanwhile, or the canvas deleted, leaves it as it is).
 */
export async function markRevisionExact(database: WeftDatabase, canvasId: string, revision: string): Promise<void> {
  await database.transaction('rw', database.revisions, async () => {
    const row = await database.revisions.get(canvasId);
    if (row?.revision === revision && row.exact !== true) await database.revisions.put({ ...row, exact: true });
  });
}

/** Inside a row write's transaction: the revision the rows now equal, or the end of their being exact. */
async function noteRowsWritten(
  database: WeftDatabase,
  canvasId: string,
  revision: string | undefined,
  exact: boolean,
): Promise<void> {
  if (revision !== undefined) {
    await database.revisions.put({ canvasId, revision, ...(exact ? { exact } : {}) });
    return;
  }
  const row = await database.revisions.get(canvasId);
  if (row?.exact) await database.revisions.put({ canvasId, revision: row.revision });
}
