import type { MachineLabel } from './machine-identity.ts';
import type { TeamRows } from './postgres-memory.ts';

/**
 * The machines whose index holds the turn `turnKey` names, as `withMachines` lists them; null while the team index
 * holds one machine (the answers then stay those of its SQLite index, byte for byte). Joined into find's and why's
 * one statement, so an answer is one round trip.
 */
export const machinesOf = (turnKey: string) => `CASE WHEN (SELECT count(*) FROM machines) >= 2 THEN coalesce(
    (SELECT json_agg(json_build_object('id', m.machine, 'name', m.name, 'person', m.person) ORDER BY m.name, m.machine)
     FROM machines m WHERE m.machine IN (SELECT machine FROM turns WHERE turn_key = ${turnKey}
                                         UNION ALL SELECT machine FROM materials WHERE turn_key = ${turnKey})),
    '[]'::json) END`;

/**
 * Hits with the machines whose index holds their turn, once the team index holds more than one machine; with
 * one machine the answers stay those of its SQLite index, byte for byte.
 */
export async function withMachines<Hit extends { turnKey: string }>(
  rows: TeamRows,
  hits: Hit[],
): Promise<(Hit & { machines?: MachineLabel[] })[]> {
  if (hits.length === 0) return hits;
  const machines = (await rows<{ n: number }>('SELECT count(*)::int AS n FROM machines'))[0]?.n ?? 0;
  if (machines < 2) return hits;
  const keys = [...new Set(hits.map((hit) => hit.turnKey))];
  const held = new Map<string, MachineLabel[]>();
  for (const row of await rows<MachineLabel & { turnKey: string }>(
    `SELECT k.turn_key AS "turnKey", m.machine AS id, m.name, m.person
     FROM (SELECT turn_key, machine FROM turns WHERE turn_key = ANY($1)
           UNION SELECT turn_key, machine FROM materials WHERE turn_key = ANY($1)) k
     JOIN machines m ON m.machine = k.machine ORDER BY m.name, m.machine`,
    [keys],
  )) {
    const { turnKey, ...label } = row;
    held.set(turnKey, [...(held.get(turnKey) ?? []), label]);
  }
  return hits.map((hit) => ({ ...hit, machines: held.get(hit.turnKey) ?? [] }));
}
