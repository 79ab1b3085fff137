import pg from 'pg';
import { findCjkRowsOnPostgres } from './cjk-find-postgres.ts';
import { hasCjk } from './cjk-text.ts';
import { ftsPhrase, newestHits, SNIPPET_WORDS, type FindField, type FindHit, type FindOptions } from './find-query.ts';
import { fts5Snippet } from './fts5-snippet.ts';
import { fts5PhrasePattern } from './fts5-words.ts';
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
    const rows: WhyRow[] = [];
    for (const target of targets) rows.push(...(await this.whyRows(target, null)));
    const putAside = options.putAsideOf ? await options.putAsideOf(rows.map((row) => row.turnKey)) : options.putAside;
    const result = foldWhyRows(rows, { ...options, ...(putAside && { putAside }) });
    return { ...result, hits: await this.withMachines(result.hits) };
  }

  async hasHistory(targets: readonly WhyTarget[]): Promise<boolean> {
    for (const target of targets) if ((await this.whyRows(target, 1)).length > 0) return true;
    return false;
  }

  /** The rows `why-query.ts` selects, by the same conditions; `limit` null for all. */
  private async whyRows(target: WhyTarget, limit: number | null): Promise<WhyRow[]> {
    const touch = `${WHY_SELECT}, x.path, x.op FROM touches x ${WHY_JOIN}`;
    switch (target.kind) {
      case 'path': {
        const { low, high } = below(target.path);
        return this.rows(`${touch} WHERE x.path = $1 OR (x.path > $2 AND x.path < $3) LIMIT $4`, [
          target.path,
          low,
          high,
          limit,
        ]);
      }
      case 'name': {
        if (target.under === null) return this.rows(`${touch} WHERE x.name = $1 LIMIT $2`, [target.name, limit]);
        const { low, high } = below(target.under);
        return this.rows(`${touch} WHERE x.name = $1 AND x.path > $2 AND x.path < $3 LIMIT $4`, [
          target.name,
          low,
          high,
          limit,
        ]);
      }
      case 'url': {
        const bare = target.url.endsWith('/') ? target.url.slice(0, -1) : target.url;
        return this.rows(
          `${WHY_SELECT}, x.url AS path, 'cite' AS op FROM urls x ${WHY_JOIN} WHERE x.url IN ($1, $2) LIMIT $3`,
          [bare, `${bare}/`, limit],
        );
      }
      case 'paper':
        return this.rows(
          `${WHY_SELECT}, x.kind || ':' || x.identifier AS path, 'cite' AS op FROM papers x ${WHY_JOIN}
           WHERE x.kind = $1 AND x.identifier = $2 LIMIT $3`,
          [target.paperKind, target.identifier, limit],
        );
    }
  }

  /**
   * `findPhrase` on PostgreSQL: a phrase is matched on the texts' FTS5 words (`LIKE '% word word %'`, served by a
   * pg_trgm GIN index), a phrase with CJK characters as a substring of the texts that hold them; newest rows first,
   * snippets cut as FTS5 cuts them.
   */
  async findPhrase(phrase: string, options: FindOptions = {}): Promise<FindHit[]> {
    ftsPhrase(phrase); // The same refusal of a phrase without words.
    const limit = options.limit ?? 20;
    // A turn several machines hold (a synced session folder) is one hit naming them all: its rows fold into one,
    // so rows are read on until `limit` hits are found or the rows run out.
    for (let read = limit; ; read *= 2) {
      const { hits, full } = await this.findRows(phrase, options, read);
      const seen = new Set<string>();
      const once = (await this.withMachines(hits)).filter((hit) => {
        const key = `${hit.field}\u0000${hit.turnKey}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (once.length >= limit || !full) return newestHits(once, limit);
    }
  }

  /** Up to `limit` rows of each field, newest first; `full` when a field had that many (there may be more). */
  private async findRows(
    phrase: string,
    options: FindOptions,
    limit: number,
  ): Promise<{ hits: FindHit[]; full: boolean }> {
    let full = false;
    const base = options.cwd ? options.cwd.replace(/\/+$/, '') : null;
    const cwdFilter = base !== null ? 'AND (c.cwd = $3 OR (c.cwd > $4 AND c.cwd < $5))' : '';
    const cwdValues = base !== null ? [base || '/', `${base}/`, `${base}0`] : [];
    const fields: FindField[] = options.in ? [options.in] : ['question', 'answer', 'material'];
    const hits: FindHit[] = [];
    const cjk = hasCjk(phrase);
    for (const field of fields) {
      if (cjk) {
        const rows = await findCjkRowsOnPostgres((sql, values) => this.rows(sql, values), {
          phrase,
          field,
          cwdFilter: cwdFilter.replace(/\$(\d)/g, (_, at: string) => `$${Number(at) + 1}`),
          cwdValues,
          limit,
        });
        for (const row of rows) hits.push({ ...row, field, sourceDeleted: row.sourceDeleted === 1 });
        full ||= rows.length >= limit;
        continue;
      }
      const rows = await this.rows<
        Omit<FindHit, 'field' | 'sourceDeleted' | 'snippet'> & { sourceDeleted: number; text: string }
      >(
        field === 'material'
          ? `SELECT c.runner, c.session_id AS "sessionId", NULL::int AS turn, c.turn_key AS "turnKey", c.cwd, c.at,
               0 AS "sourceDeleted", c.text FROM materials c
             WHERE (c.title_words LIKE $1 OR c.text_words LIKE $1) ${cwdFilter} ORDER BY c.id DESC LIMIT $2`
          : `SELECT s.runner, s.session_id AS "sessionId", c.number AS turn, c.turn_key AS "turnKey", c.cwd, c.at,
               (src.deleted_at IS NOT NULL)::int AS "sourceDeleted", c.${field === 'question' ? 'user_text' : 'assistant_text'} AS text
             FROM turns c JOIN sessions s ON s.id = c.session_row JOIN sources src ON src.id = s.source_id
             WHERE c.${field === 'question' ? 'user_words' : 'assistant_words'} LIKE $1 ${cwdFilter}
             ORDER BY c.id DESC LIMIT $2`,
        [fts5PhrasePattern(phrase), limit, ...cwdValues],
      );
      full ||= rows.length >= limit;
      // Keys in the order SQLite's rows give them: the JSON is compared byte for byte.
      for (const { text, ...row } of rows)
        hits.push({
          ...row,
          snippet: fts5Snippet(text, phrase, SNIPPET_WORDS),
          field,
          sourceDeleted: row.sourceDeleted === 1,
        });
    }
    return { hits, full };
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
    const count = async (sql: string) => (await this.rows<{ n: number }>(sql))[0]?.n ?? 0;
    const byKind = (kind: string) => sources.find((row) => row.kind === kind)?.n ?? 0;
    const last = (await this.rows<{ value: string }>("SELECT value FROM meta WHERE key = 'last_indexed_at'"))[0];
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
      sessions: await count("SELECT count(*)::int AS n FROM sessions WHERE runner <> 'canvas'"),
      turns: await count('SELECT count(*)::int AS n FROM turns'),
      touches: await count('SELECT count(*)::int AS n FROM touches'),
      materials: await count('SELECT count(*)::int AS n FROM materials'),
      databaseBytes: await count('SELECT pg_database_size(current_database()) AS n'),
      lastIndexedAt: last ? Number(last.value) : null,
      parse: sumParseReports(reports),
      ...(context.perFile ? { parseByFile: reports } : {}),
      archive: {
        ...context.archive,
        sourceDeleted: await count(
          'SELECT count(*)::int AS n FROM sessions s JOIN sources src ON src.id = s.source_id WHERE src.deleted_at IS NOT NULL',
        ),
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
    return (await this.pool.query(sql, values)).rows as Row[];
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
