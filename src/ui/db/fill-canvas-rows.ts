import { dismissalKey, ledgerKey, type WeftDatabase } from './weft-database.ts';
import type { CanvasRecords } from './canvas-records.ts';
import { persistenceCounters } from './canvas-persistence.ts';
import { packRow, packSources } from './canvas-packs.ts';

/** Rows per transaction: each slice is short, so the page keeps its frames while a big canvas is cached. */
const ROWS_PER_SLICE = 2000;
/** Packs (a few hundred records as JSON text each) per transaction. */
const PACKS_PER_SLICE = 16;

/**
 * Caches a canvas read from the server in IndexedDB, in slices with the page given a turn between them. The canvas
 * row and its revision are written last, in one transaction: until then `loadCanvasDocument` does not see the
 * canvas (a reload reads it from the server again), so a half-written cache is never read as the canvas. Rows an
 * earlier fill left behind go first, its canvas row with them: two fills of one canvas can race (the arrival cache
 * of `canvas-changed` finishing just after the canvas was opened from the server), and a canvas row left standing
 * over the packs this fill had only begun to rewrite was read on reload as a canvas with none of its cards.
 * The first turn comes before any row is touched, so a fill abandoned by then (its `pause` throws) removes nothing.
 */
export async function fillCanvasRows(
  database: WeftDatabase,
  records: CanvasRecords,
  options: { now: number; revision: string | null; pause: () => Promise<void> },
): Promise<number> {
  const canvasId = records.canvas.id;
  const owned = [database.packs, database.dismissals, database.ledgers];
  await options.pause();
  await database.transaction('rw', [database.canvases, database.revisions, ...owned], async () => {
    await database.canvases.delete(canvasId);
    await database.revisions.delete(canvasId);
    for (const table of owned) await table.where('canvasId').equals(canvasId).delete();
  });
  const nodes = [...records.nodes];
  const slices: (() => Promise<unknown>)[] = [];
  const sliced = <T>(items: readonly T[], write: (part: readonly T[]) => Promise<unknown>) => {
    for (let start = 0; start < items.length; start += ROWS_PER_SLICE)
      slices.push(() => write(items.slice(start, start + ROWS_PER_SLICE)));
  };
  // Turned into text slice by slice too: stringifying is the page's work.
  const packed = packSources(canvasId, records);
  for (let start = 0; start < packed.length; start += PACKS_PER_SLICE)
    slices.push(() => database.packs.bulkPut(packed.slice(start, start + PACKS_PER_SLICE).map(packRow)));
  sliced([...records.dismissals], (part) =>
    database.dismissals.bulkPut(part.map((record) => ({ canvasId, id: dismissalKey(record), record }))),
  );
  sliced([...records.ledgers], (part) =>
    database.ledgers.bulkPut(part.map((record) => ({ canvasId, id: ledgerKey(record), record }))),
  );
  for (const slice of slices) {
    await options.pause();
    await slice();
  }
  await options.pause();
  await database.transaction('rw', [database.canvases, database.attachments, database.revisions], async () => {
    for (const record of records.attachments) {
      const existing = await database.attachments.get(record.hash);
      const canvasIds = existing ? [...new Set([...existing.canvasIds, canvasId])] : [canvasId];
      await database.attachments.put({ hash: record.hash, record, canvasIds });
    }
    await database.canvases.put({
      id: canvasId,
      meta: records.canvas,
      updatedAt: options.now,
      nodeCount: nodes.length,
    });
    // The rows are exactly what the server sent at that revision: a reload's first save can send only its changes.
    if (options.revision) await database.revisions.put({ canvasId, revision: options.revision, exact: true });
    else await database.revisions.delete(canvasId);
  });
  const written =
    packed.length + [...records.dismissals].length + [...records.ledgers].length + [...records.attachments].length + 1;
  persistenceCounters.rowsWritten += written;
  persistenceCounters.flushes += 1;
  return written;
}
