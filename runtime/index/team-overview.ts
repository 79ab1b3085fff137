/** Runs one query on the team index (the reader's own connection, so row-level security applies). */
export type TeamQuery = <Row>(sql: string, values?: unknown[]) => Promise<Row[]>;

export interface TeamOverview {
  schemaVersions: number[];
  sessions: number;
  turns: number;
  /** Machines seen with each one's last push; null while the schema keeps no machine per row. */
  machines: { machine: string; name?: string; person?: string; sources: number; lastPushAt: number | null }[] | null;
}

/**
 * What Settings → Team index shows after a connection test: what this role can read, and the machines that pushed
 * it. The machines come from `sources.machine` where the schema has that column (per-machine pushes); before it,
 * null — shown as "not recorded", never guessed.
 */
export async function readTeamOverview(query: TeamQuery): Promise<TeamOverview> {
  const count = async (table: string) => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const versions = await query<{ version: number }>('SELECT version FROM weft_schema_migrations ORDER BY version');
  const hasMachine = await query<{ present: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'sources' AND column_name = 'machine') AS present`,
  );
  // With per-machine pushes (migration 002) the `machines` table names each machine and its person and keeps its
  // last push; the sources this role can read say which machines it sees at all.
  const machines = hasMachine[0]?.present
    ? (
        await query<{
          machine: string;
          name: string | null;
          person: string | null;
          sources: number;
          lastPushAt: number | null;
        }>(
          `SELECT s.machine, m.name, m.person, count(*)::int AS sources,
             coalesce(m.last_push_at, max(s.indexed_at))::double precision AS "lastPushAt"
           FROM sources s LEFT JOIN machines m ON m.machine = s.machine
           WHERE s.machine IS NOT NULL GROUP BY s.machine, m.name, m.person, m.last_push_at
           ORDER BY 5 DESC NULLS LAST, s.machine`,
        )
      ).map(({ name, person, ...machine }) => ({
        ...machine,
        ...(name ? { name } : {}),
        ...(person ? { person } : {}),
      }))
    : null;
  return {
    schemaVersions: versions.map((row) => row.version),
    sessions: await count('sessions'),
    turns: await count('turns'),
    machines,
  };
}
