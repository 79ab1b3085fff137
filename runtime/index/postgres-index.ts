import pg from 'pg';
import { findCjkRowsOnPostgres } from './cjk-find-postgres.ts';
import { hasCjk } from './cjk-text.ts';
import { ftsPhrase, newestHits, SNIPPET_WORDS, type FindField, type FindHit, type FindOptions } from './find-query.ts';
import { fts5Snippet } from './fts5-snippet.ts';
import { fts5PhrasePattern, fts5Words } from './fts5-words.ts';
import { IndexError } from './index-error.ts';
import { INDEX_SCHEMA_VERSION } from './index-schema.ts';
import type { IndexStatus, StatusContext } from './index-status.ts';
import type { MachineIdentity, MachineLabel } from './machine-identity.ts';
import { migratePostgres } from './migrate-postgres.ts';
import { withPreferredTls } from './team-connection.ts';
import { PostgresMemory } from './postgres-memory.ts';
import { pushMemoryToPostgres, type LocalMemory, type MemoryPushSummary } from './push-memory-to-postgres.ts';
import { readTeamOverview, type TeamOverview } from './team-overview.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { sumParseReports, type FileParseReport } from './parse-totals.ts';
import { pushIndexToPostgres, type PushOptions, type PushSummary } from './push-index-to-postgres.ts';
import type { ParseReport } from '../atlas/index.ts';
import { below, foldWhyRows, QUESTION_CHARACTERS, type WhyOptions, type WhyResult, type WhyRow } from './why-query.ts';
import type { WhyTarget } from './why-target.ts';

/** `why` on the team index: `putAsideOf` decides put-asides once the rows' turn keys are known. */
export type TeamWhyOptions = WhyOptions & {
  putAsideOf?: (turnKeys: string[]) => Promise<(turnKey: string) => boolean>;
};

const INT8 = 20;
/** BIGINT columns hold milliseconds and byte counts, all below 2^53: numbers, as better-sqlite3 returns them. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser(oid, format) as unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

const WHY_SELECT = `SELECT t.id AS "turnId", t.turn_key AS "turnKey", t.number, t.at, t.cwd, t.mirrors,
    substr(t.user_text, 1, ${QUESTION_CHARACTERS}) AS question, s.runner, s.session_id AS "sessionId",
    (src.deleted_at IS NOT NULL)::int AS "sourceDeleted", t.status`;
const WHY_JOIN =
  'JOIN turns t ON t.id = x.turn_id JOIN sessions s ON s.id = t.session_row JOIN sources src ON src.id = s.source_id';

/**
 * The machines whose index holds the turn `turnKey` names, as `withMachines` lists them; null while the team index
 * holds one machine (the answers then stay those of its SQLite index, byte for byte). Joined into find's and why's
 * one statement, so an answer is one round trip.
 */
const machinesOf = (turnKey: string) => `CASE WHEN (SELECT count(*) FROM machines) >= 2 THEN coalesce(
    (SELECT json_agg(json_build_object('id', m.machine, 'name', m.name, 'person', m.person) ORDER BY m.name, m.machine)
     FROM machines m WHERE m.machine IN (SELECT machine FROM turns WHERE turn_key = ${turnKey}
                                         UNION ALL SELECT machine FROM materials WHERE turn_key = ${turnKey})),
    '[]'::json) END`;

type FindRow = Omit<FindHit, 'field' | 'sourceDeleted' | 'snippet' | 'machines'> & {
  sourceDeleted: number;
  text: string;
  fieldAt: number;
  machines: MachineLabel[] | null;
};

/** The statement's parameters, numbered as they are added. */
class Parameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Named (prepared) statements: each connection parses a text once and then only binds and plans it. The name
 * follows the text, and the texts are built from a handful of shapes, so this stays small.
 */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) statementNames.set(sql, (name = `weft_${statementNames.size}`));
  return name;
}

/**
 * The why index on a PostgreSQL server (`WEFT_DATABASE_URL`, `weft index --push --db`): the same tables as the SQLite
 * index and the same answers. The connection string is a secret: it is kept only inside the pool, and `location`
 * names the server without user or password.
 */
export class PostgresIndex {
  /** Holds the connection string: not enumerable, so logging or inspecting this object never prints it. */
  declare private readonly pool: pg.Pool;

  private constructor(
    pool: pg.Pool,
    /** `postgres://host:port/database`, safe to show. */
    readonly location: string,
  ) {
    Object.defineProperty(this, 'pool', { value: pool, enumerable: false });
  }

  /** Connects and brings the schema up to date (`pg-migrations/`). */
  static async open(url: string): Promise<PostgresIndex> {
    const location = safeLocation(url);
    let pool: pg.Pool;
    try {
      pool = await withPreferredTls(url, async (config) => {
        const candidate = new pg.Pool({ ...config, max: 4, types });
        // An idle client's error (the server went away) must not crash the process; the next query reports it.
        candidate.on('error', () => undefined);
        // Prepared statements plan each run for its own values: a generic plan cannot see how rare a phrase is and
        // would walk the newest rows for it (queued before the connection's first query, so every query runs under it).
        candidate.on(
          'connect',
          (client) => void client.query('SET plan_cache_mode = force_custom_plan').catch(() => undefined),
        );
        try {
          const client = await candidate.connect();
          try {
            await migratePostgres(client);
          } finally {
            client.release();
          }
        } catch (error) {
          await candidate.end();
          throw error;
        }
        return candidate;
      });
    } catch (error) {
      throw new IndexError('index-open-failed', `the team index at ${location} could not be opened: ${reason(error)}`);
    }
    return new PostgresIndex(pool, location);
  }

  /** Adds what this machine's SQLite index holds and the team index does not yet hold from it (`weft index --push`). */
  async push(sqlite: IndexDatabase, machine: MachineIdentity, options?: PushOptions): Promise<PushSummary> {
    const client = await this.pool.connect();
    try {
      return await pushIndexToPostgres(sqlite, client, machine, options);
    } finally {
      client.release();
    }
  }

  /** This machine's topics and dossiers after its index (`weft index --push`): `push-memory-to-postgres.ts`. */
  async pushMemory(machine: MachineIdentity, memory: LocalMemory): Promise<MemoryPushSummary> {
    const client = await this.pool.connect();
    try {
      return await pushMemoryToPostgres(client, machine, memory);
    } finally {
      client.release();
    }
  }

  /** `putAsideOf`: which of the rows' turns to leave out, decided on their keys once the rows are read. */
  async why(targets: readonly WhyTarget[], options: TeamWhyOptions = {}): Promise<WhyResult> {
    const parameters = new Parameters();
    const selects = targets.map((target) => this.whySelect(target, parameters, null));
    const rows = await this.rows<WhyRow & { machines: MachineLabel[] | null }>(
      `SELECT w.*, ${machinesOf('w."turnKey"')} AS machines FROM (${selects.join(' UNION ALL ')}) w`,
      parameters.values,
    );
    const machines = new Map(rows.map((row) => [row.turnKey, row.machines]));
    const putAside = options.putAsideOf ? await options.putAsideOf(rows.map((row) => row.turnKey)) : options.putAside;
    const result = foldWhyRows(rows, { ...options, ...(putAside && { putAside }) });
    return {
      ...result,
      hits: result.hits.map((hit) => {
        const held = machines.get(hit.turnKey) ?? null;
        return held === null ? hit : { ...hit, machines: held };
      }),
    };
  }

  async hasHistory(targets: readonly WhyTarget[]): Promise<boolean> {
    const parameters = new Parameters();
    const selects = targets.map((target) => `(${this.whySelect(target, parameters, 1)})`);
    return (await this.rows(`SELECT 1 FROM (${selects.join(' UNION ALL ')}) h LIMIT 1`, parameters.values)).length > 0;
  }

  /** The rows `why-query.ts` selects, by the same conditions; `limit` null for all. */
  private whySelect(target: WhyTarget, parameters: Parameters, limit: number | null): string {
    const touch = `${WHY_SELECT}, x.path, x.op FROM touches x ${WHY_JOIN}`;
    const limited = limit === null ? '' : ` LIMIT ${parameters.add(limit)}`;
    switch (target.kind) {
      case 'path': {
        const { low, high } = below(target.path);
        const [path, above, under] = [target.path, low, high].map((value) => parameters.add(value));
        return `${touch} WHERE x.path = ${path} OR (x.path > ${above} AND x.path < ${under})${limited}`;
      }
      case 'name': {
        const name = parameters.add(target.name);
        if (target.under === null) return `${touch} WHERE x.name = ${name}${limited}`;
        const { low, high } = below(target.under);
        return `${touch} WHERE x.name = ${name} AND x.path > ${parameters.add(low)} AND x.path < ${parameters.add(high)}${limited}`;
      }
      case 'url': {
        const bare = target.url.endsWith('/') ? target.url.slice(0, -1) : target.url;
        return `${WHY_SELECT}, x.url AS path, 'cite' AS op FROM urls x ${WHY_JOIN}
          WHERE x.url IN (${parameters.add(bare)}, ${parameters.add(`${bare}/`)})${limited}`;
      }
      case 'paper':
        return `${WHY_SELECT}, x.kind || ':' || x.identifier AS path, 'cite' AS op FROM papers x ${WHY_JOIN}
          WHERE x.kind = ${parameters.add(target.paperKind)} AND x.identifier = ${parameters.add(target.identifier)}${limited}`;
    }
  }

  /**
   * `findPhrase` on PostgreSQL: a phrase is matched on the texts' FTS5 words (`LIKE '% word word %'`, served by a
   * GIN index of each text's word list), a phrase with CJK characters as a substring of the texts that hold them; newest rows first,
   * snippets cut as FTS5 cuts them.
   */
  async findPhrase(phrase: string, options: FindOptions = {}): Promise<FindHit[]> {
    ftsPhrase(phrase); // The same refusal of a phrase without words.
    const limit = options.limit ?? 20;
    // A turn several machines hold (a synced session folder) is one hit naming them all: its rows fold into one,
    // so rows are read on until `limit` hits are found or the rows run out.
    for (let read = limit; ; read *= 2) {
      const { hits, full } = hasCjk(phrase)
        ? await this.findCjkRows(phrase, options, read)
        : await this.findRows(phrase, options, read);
      const seen = new Set<string>();
      const once = hits.filter((hit) => {
        const key = `${hit.field}\u0000${hit.turnKey}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (once.length >= limit || !full) return newestHits(once, limit);
    }
  }

  /**
   * Up to `limit` rows of each field, newest first, with their machines: one statement (a `UNION ALL` of the
   * fields, each served by its pg_trgm GIN index and checked by the LIKE); `full` when a field had that many.
   */
  private async findRows(
    phrase: string,
    options: FindOptions,
    limit: number,
  ): Promise<{ hits: FindHit[]; full: boolean }> {
    const parameters = new Parameters();
    const pattern = parameters.add(fts5PhrasePattern(phrase));
    // Whole words, so a matching row's word list holds them all (005-word-lists.sql): the index proposes, LIKE decides.
    const words = parameters.add(fts5Words(phrase));
    const holds = (column: string) => `weft_words(${column}) @> weft_words(${words}) AND ${column} LIKE ${pattern}`;
    const limited = parameters.add(limit);
    const base = options.cwd ? options.cwd.replace(/\/+$/, '') : null;
    const cwdFilter =
      base !== null
        ? `AND (c.cwd = ${parameters.add(base || '/')} OR (c.cwd > ${parameters.add(`${base}/`)} AND c.cwd < ${parameters.add(`${base}0`)}))`
        : '';
    const fields: FindField[] = options.in ? [options.in] : ['question', 'answer', 'material'];
    const selects = fields.map((field) =>
      field === 'material'
        ? `(SELECT 2 AS "fieldAt", c.id, c.runner, c.session_id AS "sessionId", NULL::int AS turn,
             c.turn_key AS "turnKey", c.cwd, c.at, 0 AS "sourceDeleted", c.text FROM materials c
           WHERE ((${holds('c.title_words')}) OR (${holds('c.text_words')})) ${cwdFilter}
           ORDER BY c.id DESC LIMIT ${limited})`
        : `(SELECT ${field === 'question' ? 0 : 1} AS "fieldAt", c.id, s.runner, s.session_id AS "sessionId",
             c.number AS turn, c.turn_key AS "turnKey", c.cwd, c.at, (src.deleted_at IS NOT NULL)::int AS "sourceDeleted",
             c.${field === 'question' ? 'user_text' : 'assistant_text'} AS text
           FROM turns c JOIN sessions s ON s.id = c.session_row JOIN sources src ON src.id = s.source_id
           WHERE ${holds(`c.${field === 'question' ? 'user_words' : 'assistant_words'}`)} ${cwdFilter}
           ORDER BY c.id DESC LIMIT ${limited})`,
    );
    const rows = await this.rows<FindRow>(
      `SELECT f.*, ${machinesOf('f."turnKey"')} AS machines FROM (${selects.join(' UNION ALL ')}) f
       ORDER BY f."fieldAt", f.id DESC`,
      parameters.values,
    );
    const FIELDS: readonly FindField[] = ['question', 'answer', 'material'];
    const counts = [0, 0, 0];
    // Keys in the order SQLite's rows give them: the JSON is compared byte for byte.
    const hits = rows.map(({ fieldAt, runner, sessionId, turn, turnKey, cwd, at, sourceDeleted, text, machines }) => {
      counts[fieldAt]! += 1;
      const hit: FindHit = {
        runner,
        sessionId,
        turn,
        turnKey,
        cwd,
        at,
        sourceDeleted: sourceDeleted === 1,
        snippet: fts5Snippet(text, phrase, SNIPPET_WORDS),
        field: FIELDS[fieldAt]!,
      };
      return machines === null ? hit : { ...hit, machines };
    });
    return { hits, full: counts.some((count) => count >= limit) };
  }

  /** `findRows` for a phrase with CJK characters: each field's substring search, then their machines. */
  private async findCjkRows(
    phrase: string,
    options: FindOptions,
    limit: number,
  ): Promise<{ hits: FindHit[]; full: boolean }> {
    let full = false;
    const base = options.cwd ? options.cwd.replace(/\/+$/, '') : null;
    const cwdFilter = base !== null ? 'AND (c.cwd = $4 OR (c.cwd > $5 AND c.cwd < $6))' : '';
    const cwdValues = base !== null ? [base || '/', `${base}/`, `${base}0`] : [];
    const fields: FindField[] = options.in ? [options.in] : ['question', 'answer', 'material'];
    const hits: FindHit[] = [];
    for (const field of fields) {
      const rows = await findCjkRowsOnPostgres((sql, values) => this.rows(sql, values), {
        phrase,
        field,
        cwdFilter,
        cwdValues,
        limit,
      });
      for (const row of rows) hits.push({ ...row, field, sourceDeleted: row.sourceDeleted === 1 });
      full ||= rows.length >= limit;
    }
    return { hits: await this.withMachines(hits), full };
  }

  /**
   * Hits with the machines whose index holds their turn, once the team index holds more than one machine; with
   * one machine the answers stay those of its SQLite index, byte for byte.
   */
  private async withMachines<Hit extends { turnKey: string }>(
    hits: Hit[],
  ): Promise<(Hit & { machines?: MachineLabel[] })[]> {
    if (hits.length === 0) return hits;
    const machines = (await this.rows<{ n: number }>('SELECT count(*)::int AS n FROM machines'))[0]?.n ?? 0;
    if (machines < 2) return hits;
    const keys = [...new Set(hits.map((hit) => hit.turnKey))];
    const held = new Map<string, MachineLabel[]>();
    for (const row of await this.rows<MachineLabel & { turnKey: string }>(
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

  /** `weft status` from the team index: its counts and parse reports, this machine's roots and archive. */
  async status(context: StatusContext): Promise<IndexStatus> {
    const sources = await this.rows<{ kind: string; n: number; fullReads: number; appendReads: number }>(
      `SELECT kind, count(*)::int AS n, sum(full_reads)::int AS "fullReads", sum(append_reads)::int AS "appendReads"
       FROM sources GROUP BY kind`,
    );
    // The counts in one round trip (each was its own).
    const counts = (
      await this.rows<{
        sessions: number;
        turns: number;
        touches: number;
        materials: number;
        databaseBytes: number;
        sourceDeleted: number;
        last: string | null;
      }>(
        `SELECT (SELECT count(*)::int FROM sessions WHERE runner <> 'canvas') AS sessions,
           (SELECT count(*)::int FROM turns) AS turns, (SELECT count(*)::int FROM touches) AS touches,
           (SELECT count(*)::int FROM materials) AS materials,
           pg_database_size(current_database()) AS "databaseBytes",
           (SELECT count(*)::int FROM sessions s JOIN sources src ON src.id = s.source_id
            WHERE src.deleted_at IS NOT NULL) AS "sourceDeleted",
           (SELECT value FROM meta WHERE key = 'last_indexed_at') AS last`,
      )
    )[0]!;
    const byKind = (kind: string) => sources.find((row) => row.kind === kind)?.n ?? 0;
    const reports: FileParseReport[] = [];
    for (const row of await this.rows<{ path: string; runner: string | null; report: string }>(
      "SELECT path, runner, report FROM sources WHERE kind = 'session' AND report IS NOT NULL ORDER BY path",
    )) {
      try {
        reports.push({ path: row.path, runner: row.runner, report: JSON.parse(row.report) as ParseReport });
      } catch {
        // As `readFileParseReports`: a damaged row is left out rather than failing the status.
      }
    }
    return {
      weftHome: context.weftHome,
      databasePath: this.location,
      schemaVersion: INDEX_SCHEMA_VERSION,
      roots: [...context.roots],
      sources: {
        sessions: byKind('session'),
        memoryFiles: byKind('memory'),
        canvases: byKind('canvas'),
        fullReads: sources.reduce((total, row) => total + row.fullReads, 0),
        appendReads: sources.reduce((total, row) => total + row.appendReads, 0),
      },
      sessions: counts.sessions,
      turns: counts.turns,
      touches: counts.touches,
      materials: counts.materials,
      databaseBytes: counts.databaseBytes,
      lastIndexedAt: counts.last !== null ? Number(counts.last) : null,
      parse: sumParseReports(reports),
      ...(context.perFile ? { parseByFile: reports } : {}),
      archive: {
        ...context.archive,
        sourceDeleted: counts.sourceDeleted,
      },
    };
  }

  /** Recall and the put-aside check on the team index's own rows (`postgres-memory.ts`). */
  memory(): PostgresMemory {
    return new PostgresMemory(
      (sql, values) => this.rows(sql, values),
      (hits) => this.withMachines(hits),
    );
  }

  /** What this connection's role can read, and the machines that pushed it (Settings → Team index). */
  overview(): Promise<TeamOverview> {
    return readTeamOverview((sql, values) => this.rows(sql, values));
  }

  private async rows<Row>(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query({ name: statementName(sql), text: sql, values })).rows as Row[];
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** A connection string without its user, password or parameters: what messages and `status` may show. */
export function safeLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'postgres://(unreadable connection string)';
  }
}

/** The server's reason, never the connection string (pg's messages do not carry it; this keeps it so). */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/postgres(ql)?:\/\/\S+/gi, (url) => safeLocation(url));
}
