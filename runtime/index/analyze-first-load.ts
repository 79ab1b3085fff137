import type pg from 'pg';

/**
 * The first push into an empty team index leaves the planner without statistics until autovacuum comes round, and
 * without them `why` and `find` may be planned as scans (PostgreSQL's advice: ANALYZE after a bulk load). Later
 * growth is autovacuum's. A role that does not own the tables is skipped by the server (a warning); several pushes
 * ending at once analyze each table once (SKIP_LOCKED).
 */
export async function analyzeFirstLoad(client: pg.ClientBase): Promise<void> {
  const never = await client.query<{ never: boolean }>(
    "SELECT reltuples <= 0 AS never FROM pg_class WHERE oid = 'turns'::regclass",
  );
  if (never.rows[0]?.never)
    await client.query('ANALYZE (SKIP_LOCKED) sources, sessions, turns, touches, urls, papers, materials, cjk_texts');
}
