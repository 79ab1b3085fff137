import pg from 'pg';
import type { FindHit, FindOptions } from './find-query.ts';
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
import { postgresFind } from './postgres-find.ts';
import { Parameters } from './postgres-parameters.ts';
import { pushIndexToPostgres, type PushOptions, type PushSummary } from './push-index-to-postgres.ts';
import type { ParseReport } from '../atlas/index.ts';
import { below, foldWhyRows, QUESTION_CHARACTERS, type WhyOptions, type WhyResult, type WhyRow } from './why-query.ts';
import type { WhyTarget } from './why-target.ts';
import { machinesOf, withMachines } from './with-machines.ts';

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
  /** Whether this pool's role is subject to row-level security (a person's role), once asked. */
  private policed: Promise<boolean> | undefined;

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
   * `findPhrase` on PostgreSQL (`postgres-find.ts`): a phrase is matched on the texts' FTS5 words, a phrase with CJK
   * characters as a substring of the texts that hold them; newest rows first, snippets cut as FTS5 cuts them.
   */
  async findPhrase(phrase: string, options: FindOptions = {}): Promise<FindHit[]> {
    // Asked once per pool (every connection is the same role): a person's role finds turns through their index.
    this.policed ??= this.rows<{ on: boolean }>("SELECT row_security_active('turns') AS on").then(
      (found) => found[0]!.on,
      () => false,
    );
    return postgresFind((sql, values) => this.rows(sql, values), phrase, options, await this.policed);
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
      (hits) => withMachines((sql, values) => this.rows(sql, values), hits),
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
