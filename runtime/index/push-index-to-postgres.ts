import type pg from 'pg';
import { fts5Words } from './fts5-words.ts';
import { isPutAsideTurn, removePutAsideTurns } from './push-put-asides.ts';
import { freshSourceStatement, insertFreshSource, type FreshSource } from './insert-fresh-source.ts';
import { CJK, columns, MATERIAL, SESSION, SOURCE, TURN, TURN_CHILDREN, type Column, type Row } from './push-columns.ts';
import type { MachineIdentity } from './machine-identity.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { analyzeFirstLoad } from './analyze-first-load.ts';
import { heldAsLocal, localGeneration, sameLocalRow } from './push-generation.ts';
import { inTransaction, type HeldSource } from './push-transaction.ts';
import { withConnectedPerson } from './connected-person.ts';

export interface PushSummary {
  machine: MachineIdentity;
  sources: { pushed: number; unchanged: number; removed: number };
  /** Rows added per table by this push (rows it already held are not sent again). */
  rows: Record<string, number>;
  durationMs: number;
}

export interface PushOptions {
  /** Called inside each source's transaction once its rows are written, before COMMIT (the kill trial's hook). */
  beforeCommit?: (path: string) => void | Promise<void>;
  /**
   * Whether a session turn's question is put aside here (issue 29.2): such a turn is never sent, and one sent
   * before it was put aside leaves the team index. (A put-aside canvas node leaves the local index itself.)
   */
  sessionTurnPutAside?: (question: string) => boolean;
}

/**
 * Adds to the team index what this machine's SQLite index holds and the team index does not yet hold from this
 * machine. One transaction per source, under a lock on (machine, path): a source is pushed whole at its new state or
 * not at all, so a push killed anywhere and run again adds nothing twice, and two pushes of one machine at once
 * do each source once. A source whose state (size, bytes read, read counters, …) the team index already holds is
 * skipped; otherwise its rows are compared by their local ids: rows gone locally are deleted, new ones inserted,
 * so a file that grew sends only its rewritten last turn and the new turns.
 */
export async function pushIndexToPostgres(
  sqlite: IndexDatabase,
  client: pg.ClientBase,
  pushing: MachineIdentity,
  options: PushOptions = {},
): Promise<PushSummary> {
  const started = performance.now();
  const machine = await withConnectedPerson(client, pushing);
  const generation = localGeneration(sqlite);
  const summary: PushSummary = {
    machine,
    sources: { pushed: 0, unchanged: 0, removed: 0 },
    rows: { sources: 0, sessions: 0, turns: 0, touches: 0, urls: 0, papers: 0, materials: 0, cjk_texts: 0 },
    durationMs: 0,
  };
  const now = Date.now();
  await client.query(
    `INSERT INTO machines (machine, name, person, first_push_at, last_push_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (machine) DO UPDATE SET name = $2, person = $3`,
    [machine.id, machine.name, machine.person, now],
  );
  // Sources in the order their rows were written locally, so the server's ids order ties as SQLite's do.
  const locals = sqlite
    .prepare(
      `SELECT src.id, ${SOURCE.map(([name]) => `src.${name}`).join(', ')},
         (SELECT max(t.id) FROM sessions s JOIN turns t ON t.session_row = s.id WHERE s.source_id = src.id) AS last_turn,
         (SELECT max(m.id) FROM materials m WHERE m.source_id = src.id) AS last_material
       FROM sources src ORDER BY last_turn NULLS FIRST, last_material NULLS FIRST, src.id`,
    )
    .all() as Row[];
  const localPaths = new Set(locals.map((local) => local.path));
  // Every source this machine pushed before, with its state, in one read: a source held at its local state needs
  // no transaction (a push after a small append touches only the grown file, not every source).
  const held = new Map(
    (
      await client.query<Row & { path: string }>(
        `SELECT generation, local_id, ${SOURCE.map(([name]) => name).join(', ')} FROM sources WHERE machine = $1`,
        [machine.id],
      )
    ).rows.map((row) => [row.path, row]),
  );
  const gone = [...held.keys()].filter((path) => !localPaths.has(path)).map((path) => ({ path }));
  for (const { path } of gone)
    await inTransaction(client, machine, path, async () => {
      const removed = await client.query('DELETE FROM sources WHERE machine = $1 AND path = $2', [machine.id, path]);
      summary.sources.removed += removed.rowCount ?? 0;
    });
  // The next source's statement, built while the server writes the current one (`ahead`).
  let upcoming: { local: Row; statement: FreshSource | null } | null = null;
  const keepTurn = (row: Row) => !isPutAsideTurn(row, options.sessionTurnPutAside);
  const statementFor = (local: Row) =>
    upcoming?.local === local ? upcoming.statement : freshSourceStatement(sqlite, machine, generation, local, keepTurn);
  for (const [at, local] of locals.entries()) {
    const ahead = () => {
      const following = locals[at + 1];
      const known = following && held.get(following.path as string);
      if (following && !(known && sameLocalRow(known, following, generation)))
        upcoming = {
          local: following,
          statement: freshSourceStatement(sqlite, machine, generation, following, keepTurn),
        };
    };
    const known = held.get(local.path as string);
    // Read outside the source's lock: a source is committed whole, so a held state is that state's rows.
    if (known !== undefined && heldAsLocal(known, local, generation)) {
      summary.sources.unchanged += 1;
      continue;
    }
    const pushed = await inTransaction(client, machine, local.path as string, async (current) => {
      const added = await pushSource(sqlite, client, {
        machine,
        generation,
        local,
        held: current,
        statementFor,
        ahead,
        keepTurn,
      });
      if (added) await options.beforeCommit?.(local.path as string);
      return added;
    });
    if (!pushed) summary.sources.unchanged += 1;
    else {
      summary.sources.pushed += 1;
      for (const [table, count] of Object.entries(pushed)) summary.rows[table] = (summary.rows[table] ?? 0) + count;
    }
  }
  if (options.sessionTurnPutAside) await removePutAsideTurns(sqlite, client, machine, options.sessionTurnPutAside);
  const last = sqlite.prepare("SELECT value FROM meta WHERE key = 'last_indexed_at'").get() as
    { value: string } | undefined;
  if (last)
    await client.query(
      `INSERT INTO meta (key, value) VALUES ('last_indexed_at', $1) ON CONFLICT (key) DO UPDATE
       SET value = greatest(meta.value::bigint, excluded.value::bigint)::text`,
      [last.value],
    );
  await client.query('UPDATE machines SET last_push_at = $2 WHERE machine = $1', [machine.id, Date.now()]);
  await analyzeFirstLoad(client);
  summary.durationMs = performance.now() - started;
  return summary;
}

/** One source's rows brought to the local state; the rows added per table, or null when it was already there. */
async function pushSource(
  sqlite: IndexDatabase,
  client: pg.ClientBase,
  source: {
    machine: MachineIdentity;
    generation: string;
    local: Row;
    /** Read again under the source's lock: another push of this machine may have moved it since the first read. */
    held: HeldSource | undefined;
    statementFor: (local: Row) => FreshSource | null;
    /** Work to do while the server writes this source. */
    ahead: () => void;
    /** False for a turn never sent (put aside here). */
    keepTurn: (row: Row) => boolean;
  },
): Promise<Record<string, number> | null> {
  const { machine, generation, local, held } = source;
  const sameIds = held !== undefined && sameLocalRow(held, local, generation);
  if (sameIds && heldAsLocal(held, local, generation)) return null;
  const added: Record<string, number> = {};
  let sourceId: number;
  if (sameIds) {
    sourceId = Number(held.id);
    await client.query(
      `UPDATE sources SET person = $2, ${SOURCE.map(([name], at) => `${name} = $${at + 3}`).join(', ')} WHERE id = $1`,
      [sourceId, machine.person, ...SOURCE.map(([name]) => local[name])],
    );
  } else {
    // Ids from another local database (or none held): the source's rows are sent whole.
    if (held) await client.query('DELETE FROM sources WHERE id = $1', [held.id]);
    const statement = source.statementFor(local);
    if (statement) {
      const sent = insertFreshSource(client, statement);
      try {
        source.ahead();
      } catch {
        // Built again, and its error thrown, when that source's turn comes.
      }
      return await sent;
    }
    const inserted = await insertRows(
      client,
      'sources',
      [...columns('machine:text, person:text, generation:text, local_id:bigint'), ...SOURCE],
      [{ ...local, machine: machine.id, person: machine.person, generation, local_id: local.id }],
    );
    sourceId = inserted.get(local.id as number)!;
    added.sources = 1;
  }
  const sourceLocalId = local.id as number;
  const keyed = columns('machine:text, local_id:bigint');
  // A source inserted just now holds no rows yet: nothing to read back or delete.
  const fresh = !sameIds;

  const sessionIds = await syncById(client, sqlite, {
    table: 'sessions',
    local: `SELECT * FROM sessions WHERE source_id = ? ORDER BY id`,
    held: 'SELECT id, local_id FROM sessions WHERE source_id = $1',
    localValues: [sourceLocalId],
    heldValues: [sourceId],
    fresh,
    insert: [...keyed, ...columns('source_id:bigint'), ...SESSION],
    row: (row) => ({ ...row, machine: machine.id, local_id: row.id, source_id: sourceId }),
    update: SESSION,
    added,
  });
  const turnIds = await syncById(client, sqlite, {
    table: 'turns',
    local: `SELECT t.* FROM turns t JOIN sessions s ON s.id = t.session_row WHERE s.source_id = ? ORDER BY t.id`,
    held: 'SELECT t.id, t.local_id FROM turns t JOIN sessions s ON s.id = t.session_row WHERE s.source_id = $1',
    localValues: [sourceLocalId],
    heldValues: [sourceId],
    fresh,
    insert: [...keyed, ...columns('session_row:bigint'), ...TURN, ...columns('user_words:text, assistant_words:text')],
    keep: source.keepTurn,
    row: (row) => ({
      ...row,
      machine: machine.id,
      local_id: row.id,
      session_row: sessionIds.get(row.session_row as number),
      user_words: fts5Words(row.user_text as string),
      assistant_words: fts5Words(row.assistant_text as string),
    }),
    added,
    onInserted: async (newLocalIds, heldTurns) => {
      for (const { table, columns: own } of TURN_CHILDREN) {
        const rows = sqlite
          .prepare(`SELECT * FROM ${table} WHERE turn_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`)
          .all(JSON.stringify(newLocalIds)) as Row[];
        const mapped = rows.map((row) => ({
          ...row,
          machine: machine.id,
          turn_id: heldTurns.get(row.turn_id as number),
        }));
        await insertRows(client, table, [...columns('machine:text, turn_id:bigint'), ...own], mapped);
        added[table] = (added[table] ?? 0) + rows.length;
      }
    },
  });
  const materialIds = await syncById(client, sqlite, {
    table: 'materials',
    local: 'SELECT * FROM materials WHERE source_id = ? ORDER BY id',
    held: 'SELECT id, local_id FROM materials WHERE source_id = $1',
    localValues: [sourceLocalId],
    heldValues: [sourceId],
    fresh,
    insert: [...keyed, ...columns('source_id:bigint'), ...MATERIAL, ...columns('title_words:text, text_words:text')],
    row: (row) => ({
      ...row,
      machine: machine.id,
      local_id: row.id,
      source_id: sourceId,
      title_words: fts5Words(row.title as string),
      text_words: fts5Words(row.text as string),
    }),
    added,
  });
  await syncById(client, sqlite, {
    table: 'cjk_texts',
    local: `SELECT c.* FROM cjk_texts c WHERE c.turn_id IN
              (SELECT t.id FROM turns t JOIN sessions s ON s.id = t.session_row WHERE s.source_id = ?)
            OR c.material_id IN (SELECT id FROM materials WHERE source_id = ?) ORDER BY c.id`,
    held: `SELECT c.id, c.local_id FROM cjk_texts c WHERE c.turn_id IN
             (SELECT t.id FROM turns t JOIN sessions s ON s.id = t.session_row WHERE s.source_id = $1)
           OR c.material_id IN (SELECT id FROM materials WHERE source_id = $1)`,
    localValues: [sourceLocalId, sourceLocalId],
    heldValues: [sourceId],
    fresh,
    insert: [...keyed, ...columns('turn_id:bigint, material_id:bigint'), ...CJK],
    // A put-aside turn's CJK text stays here with it.
    keep: (row) => row.turn_id === null || turnIds.has(row.turn_id as number),
    row: (row) => ({
      ...row,
      machine: machine.id,
      local_id: row.id,
      turn_id: row.turn_id === null ? null : turnIds.get(row.turn_id as number),
      material_id: row.material_id === null ? null : materialIds.get(row.material_id as number),
    }),
    added,
  });
  return added;
}

interface SyncSpec {
  table: string;
  local: string;
  held: string;
  localValues: unknown[];
  heldValues: unknown[];
  insert: Column[];
  row: (row: Row) => Row;
  /** Columns brought up to date on rows both sides hold (a session's title and end grow with its file). */
  update?: Column[];
  /** Local rows never sent (held ones among them are deleted); absent: every row. */
  keep?: (row: Row) => boolean;
  added: Record<string, number>;
  /** The source was inserted by this push: no row of it is held. */
  fresh: boolean;
  onInserted?: (newLocalIds: number[], ids: Map<number, number>) => Promise<void>;
}

/**
 * One table's rows of a source, matched by local id: held rows gone locally are deleted (their children cascade),
 * local rows not held are inserted in local id order. Returns local id → server id for every row now held.
 */
async function syncById(client: pg.ClientBase, sqlite: IndexDatabase, spec: SyncSpec): Promise<Map<number, number>> {
  const all = sqlite.prepare(spec.local).all(...spec.localValues) as Row[];
  const locals = spec.keep ? all.filter(spec.keep) : all;
  const localIds = new Set(locals.map((row) => row.id as number));
  const ids = new Map<number, number>();
  const stale: number[] = [];
  const heldRows = spec.fresh
    ? []
    : (await client.query<{ id: number; local_id: number }>(spec.held, spec.heldValues)).rows;
  for (const held of heldRows) {
    if (localIds.has(Number(held.local_id))) ids.set(Number(held.local_id), Number(held.id));
    else stale.push(Number(held.id));
  }
  if (stale.length > 0) await client.query(`DELETE FROM ${spec.table} WHERE id = ANY($1::bigint[])`, [stale]);
  if (spec.update) {
    const update = spec.update;
    for (const row of locals.filter((each) => ids.has(each.id as number)))
      await client.query(
        `UPDATE ${spec.table} SET ${update.map(([name], at) => `${name} = $${at + 2}`).join(', ')} WHERE id = $1`,
        [ids.get(row.id as number), ...update.map(([name]) => row[name])],
      );
  }
  const fresh = locals.filter((row) => !ids.has(row.id as number));
  for (const [localId, id] of await insertRows(client, spec.table, spec.insert, fresh.map(spec.row)))
    ids.set(localId, id);
  if (fresh.length > 0) spec.added[spec.table] = (spec.added[spec.table] ?? 0) + fresh.length;
  await spec.onInserted?.(
    fresh.map((row) => row.id as number),
    ids,
  );
  return ids;
}

/** Rows sent per INSERT: one round trip each, small enough to keep the arrays' memory flat. */
const BATCH_ROWS = 2000;

/** Inserts rows through `unnest` of one array per column, in order; local id → new id when the table has ids. */
async function insertRows(
  client: pg.ClientBase,
  table: string,
  all: Column[],
  rows: Row[],
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  const returning = all.some(([name]) => name === 'local_id') ? ' RETURNING id, local_id' : '';
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    // WITH ORDINALITY + ORDER BY: ids are taken in the rows' order, so ties order as they did locally.
    const result = await client.query<{ id: number; local_id: number }>(
      `INSERT INTO ${table} (${all.map(([name]) => name).join(', ')})
       SELECT ${all.map(([name]) => `u.${name}`).join(', ')}
       FROM unnest(${all.map(([, type], at) => `$${at + 1}::${type}[]`).join(', ')})
         WITH ORDINALITY AS u(${all.map(([name]) => name).join(', ')}, ordinal)
       ORDER BY u.ordinal${returning}`,
      all.map(([name]) => batch.map((row) => row[name] ?? null)),
    );
    for (const row of result.rows) ids.set(Number(row.local_id), Number(row.id));
  }
  return ids;
}
