import type pg from 'pg';
import type { MachineIdentity } from './machine-identity.ts';
import type { IndexDatabase } from './open-index-database.ts';
import type { Row } from './push-columns.ts';

/** A session turn whose question is put aside here (issue 29.2): never sent to the team index. */
export function isPutAsideTurn(row: Row, putAside: ((question: string) => boolean) | undefined): boolean {
  return putAside !== undefined && !(row.turn_key as string).startsWith('canvas:') && putAside(row.user_text as string);
}

/**
 * This machine's session turns put aside after they were pushed leave the team index (a source whose state did
 * not change is not compared again, so its turns are checked here).
 */
export async function removePutAsideTurns(
  sqlite: IndexDatabase,
  client: pg.ClientBase,
  machine: MachineIdentity,
  putAside: (question: string) => boolean,
): Promise<void> {
  const keys = (sqlite.prepare('SELECT turn_key, user_text FROM turns').all() as Row[])
    .filter((row) => isPutAsideTurn(row, putAside))
    .map((row) => row.turn_key as string);
  if (keys.length > 0)
    await client.query('DELETE FROM turns WHERE machine = $1 AND turn_key = ANY($2)', [machine.id, keys]);
}
