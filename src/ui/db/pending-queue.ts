import type { PendingRow, WeftDatabase } from './weft-database.ts';

/**
 * The canvas's unacknowledged steps, in the order they were made, taken over by `owner` (the page opening it): the
 * steps of pages still open elsewhere (`live`, their page locks) stay theirs, so two tabs never both replay one
 * queue. One transaction reads and re-owns them, so of two pages opening at once only one takes a given step. The
 * taken steps get `firstPosition`, `firstPosition + 1`, … in the new owner's journal.
 */
export async function claimPending(
  database: WeftDatabase,
  canvasId: string,
  owner: string,
  live: ReadonlySet<string>,
  firstPosition: number,
): Promise<PendingRow[]> {
  return database.transaction('rw', database.pending, async () => {
    const rows = await database.pending.where('canvasId').equals(canvasId).sortBy('seq');
    const taken = rows.filter((row) => row.owner === owner || !live.has(row.owner));
    if (taken.length === 0) return [];
    await database.pending.bulkDelete(taken.map((row) => row.seq!));
    const claimed = taken.map((row, index): PendingRow => ({
      canvasId,
      owner,
      position: firstPosition + index,
      baseRevision: row.baseRevision,
      step: row.step,
    }));
    // Re-added after the rows still owned elsewhere, in their order: the order they replay in is kept.
    await database.pending.bulkAdd(claimed);
    return claimed;
  });
}

/** A save holding `owner`'s steps up to `position` on the canvas landed: they are the server's now. */
export async function acknowledgePending(
  database: WeftDatabase,
  canvasId: string,
  owner: string,
  position: number,
): Promise<void> {
  await database.pending
    .where('canvasId')
    .equals(canvasId)
    .filter((row) => row.owner === owner && row.position <= position)
    .delete();
}

/** How many steps of the canvas wait for the server (any page's). */
export function countPending(database: WeftDatabase, canvasId: string): Promise<number> {
  return database.pending.where('canvasId').equals(canvasId).count();
}
