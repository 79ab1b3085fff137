import type pg from 'pg';
import type { MachineIdentity } from './machine-identity.ts';
import { SOURCE, type Row } from './push-columns.ts';

/** A source as the team index holds it, read again under its lock. */
export type HeldSource = Row & { id: number; generation: string; local_id: number };

/**
 * One source's transaction: BEGIN, the lock on (machine, path) and the source as the team index holds it, in one
 * round trip; COMMIT when `work` succeeds, ROLLBACK when it throws.
 */
export async function inTransaction<T>(
  client: pg.ClientBase,
  machine: MachineIdentity,
  path: string,
  work: (held: HeldSource | undefined) => Promise<T>,
): Promise<T> {
  const [id, at] = [client.escapeLiteral(machine.id), client.escapeLiteral(path)];
  // One round trip: two pushes of one machine at once take turns per source (other machines' pushes never wait on
  // it), and the source is read after the lock is held (each statement of a simple query takes its own snapshot).
  const results = (await client.query(
    `BEGIN; SELECT pg_advisory_xact_lock(hashtext(${id}), hashtext(${at}));
     SELECT id, generation, local_id, ${SOURCE.map(([name]) => name).join(', ')} FROM sources
     WHERE machine = ${id} AND path = ${at}`,
  )) as unknown as pg.QueryResult<HeldSource>[];
  try {
    const result = await work(results[2]!.rows[0]);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
