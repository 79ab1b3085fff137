import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { IndexError } from './index-error.ts';
import { migratePostgres } from './migrate-postgres.ts';
import { safeLocation } from './postgres-index.ts';
import { withPreferredTls } from './team-connection.ts';

/** One connection for `weft db`'s work, closed after; a refusal names the server, never the connection string. */
export async function withTeamClient<T>(url: string, use: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  let client: pg.Client;
  try {
    client = await withPreferredTls(url, async (config) => {
      const candidate = new pg.Client(config);
      // An error after connecting (the server went away) must not crash the process; the query in flight reports it.
      candidate.on('error', () => undefined);
      await candidate.connect();
      return candidate;
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new IndexError('index-open-failed', `the team index at ${safeLocation(url)} could not be opened: ${message}`);
  }
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Every person's role is in `weft_write`, which is in `weft_read`; neither group can log in. */
export const READ_ROLE = 'weft_read';
export const WRITE_ROLE = 'weft_write';
/** The tables only the admin (the tables' owner) changes: who is who, who may read what, the schema's version. */
const ADMIN_TABLES = ['weft_people', 'weft_grants', 'weft_schema_migrations'];

export interface TeamInit {
  /** Migration versions applied now. */
  applied: number[];
  /** The login role made (or given a new password) for `person`, and its connection string: a secret. */
  person: { name: string; role: string; url: string } | null;
}

/**
 * `weft db init`, run with the admin's connection: the schema (migrations, row-level security among them), the
 * read and write groups with their privileges, and — with `person` — that person's login role with a new random
 * password (made again, the password changes). Idempotent.
 */
export async function initTeamDatabase(client: pg.ClientBase, adminUrl: string, person?: string): Promise<TeamInit> {
  const applied = await migratePostgres(client);
  await client.query('BEGIN');
  try {
    // Roles belong to the server, not to one database: made once, granted here.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('weft-db-init'))");
    for (const role of [READ_ROLE, WRITE_ROLE])
      if (!(await roleExists(client, role))) await client.query(`CREATE ROLE ${role} NOLOGIN`);
    await client.query(`GRANT ${READ_ROLE} TO ${WRITE_ROLE}`);
    // Nobody but the admin creates objects here (PostgreSQL before 15 let everyone): a reader's own function or
    // table must not be what the policies' unqualified names find.
    await client.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    await client.query(`GRANT USAGE ON SCHEMA public TO ${READ_ROLE}`);
    await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${READ_ROLE}`);
    // find's indexed path for a person's role (pg migration 007); PUBLIC may not call it.
    await client.query(
      `GRANT EXECUTE ON FUNCTION weft_find_turns(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, INT) TO ${READ_ROLE}`,
    );
    await client.query(`GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${WRITE_ROLE}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${WRITE_ROLE}`);
    await client.query(`REVOKE INSERT, UPDATE, DELETE ON ${ADMIN_TABLES.join(', ')} FROM ${WRITE_ROLE}`);
    const made = person === undefined ? null : await personRole(client, adminUrl, person);
    await client.query('COMMIT');
    return { applied, person: made };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function personRole(client: pg.ClientBase, adminUrl: string, person: string): Promise<TeamInit['person']> {
  const role = personRoleName(person);
  const password = randomBytes(24).toString('base64url');
  // Sent hashed by nobody but the server: the statement is not logged by Weft, and the password is random.
  const verb = (await roleExists(client, role)) ? 'ALTER' : 'CREATE';
  await client.query(`${verb} ROLE ${role} LOGIN PASSWORD ${client.escapeLiteral(password)}`);
  await client.query(`GRANT ${WRITE_ROLE} TO ${role}`);
  await client.query(
    'INSERT INTO weft_people (role_name, person) VALUES ($1, $2) ON CONFLICT (role_name) DO UPDATE SET person = $2',
    [role, person],
  );
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  return { name: person, role, url: url.toString() };
}

/** A person's name is also part of their role's name: lower-case letters, digits and `_`. */
export function personRoleName(person: string): string {
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(person))
    throw new IndexError(
      'bad-person',
      `a person's name is lower-case letters, digits and _ (at most 40, a letter first): ${JSON.stringify(person)}`,
    );
  return `weft_${person}`;
}

/**
 * A project: a working-directory root (absolute; the folder and everything below it, by each turn's own cwd) or
 * a canvas (`canvas:<canvasId>`). Returns its one spelling (no trailing `/`).
 */
export function projectName(project: string): string {
  if (/^canvas:[^#@/\s]+$/.test(project)) return project;
  if (!project.startsWith('/'))
    throw new IndexError('bad-project', 'a project is an absolute folder or canvas:<canvasId>');
  const folder = project.replace(/\/+$/, '');
  return folder === '' ? '/' : folder;
}

/** Lets `person` read `project`; the person must have been made by `initTeamDatabase`. */
export async function grantProject(client: pg.ClientBase, person: string, project: string): Promise<void> {
  personRoleName(person);
  const known = await client.query('SELECT 1 FROM weft_people WHERE person = $1', [person]);
  if (known.rowCount === 0)
    throw new IndexError('bad-person', `no person ${person} in this team index (weft db init --person ${person})`);
  await client.query('INSERT INTO weft_grants (person, project) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    person,
    projectName(project),
  ]);
}

/** Takes a grant back; true when there was one. */
export async function revokeProject(client: pg.ClientBase, person: string, project: string): Promise<boolean> {
  const removed = await client.query('DELETE FROM weft_grants WHERE person = $1 AND project = $2', [
    person,
    projectName(project),
  ]);
  return (removed.rowCount ?? 0) > 0;
}

/** The grants this connection's role may see: all of them for the admin, a person's own for a person. */
export async function listGrants(client: pg.ClientBase): Promise<{ person: string; project: string }[]> {
  return (
    await client.query<{ person: string; project: string }>(
      'SELECT person, project FROM weft_grants ORDER BY person, project',
    )
  ).rows;
}

async function roleExists(client: pg.ClientBase, role: string): Promise<boolean> {
  return ((await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount ?? 0) > 0;
}
