import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPostgres } from './find-postgres.mjs';

/** A real PostgreSQL server for the tests, on 127.0.0.1 only, in a scratch folder removed by `stop()`. */
export interface PostgresServer {
  /** `postgres://weft:…@127.0.0.1:<port>/postgres`: holds the password, so tests never print it. */
  readonly url: string;
  readonly port: number;
  /** With `{ tls: true }`: the self-signed certificate the server presents (its name is 127.0.0.1), a PEM file. */
  readonly certificate: string | null;
  /** A new, empty database on this server; its connection string. */
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

/** PostgreSQL refuses to run as root: as root the server runs as this user, which owns the scratch folder. */
const UNPRIVILEGED_USER = 'postgres';
const SUPERUSER = 'weft';

/**
 * `initdb` + `pg_ctl start` from the installed binaries (`findPostgres`: `PG_BIN` or Debian's layout) in a scratch
 * folder on a free loopback port. Throws, naming the install command, when the binaries are missing: a test
 * that needs PostgreSQL fails instead of skipping silently.
 */
export async function startPostgres(options: { tls?: boolean } = {}): Promise<PostgresServer> {
  const found = findPostgres();
  if (!found.bin) throw new Error(found.message);
  const bin = found.bin;
  const scratch = mkdtempSync(join(tmpdir(), 'weft-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? unprivilegedIds() : null;
  const run = (command: string, args: string[]) => {
    const argv = owner
      ? ['runuser', ['-u', UNPRIVILEGED_USER, '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    const result = spawnSync(argv[0] as string, argv[1] as string[], { encoding: 'utf8', cwd: scratch });
    if (result.status !== 0)
      throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`.trim());
  };
  const password = randomBytes(18).toString('hex');
  const data = join(scratch, 'data');
  const passwordFile = join(scratch, 'password');
  try {
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    if (owner) {
      chownSync(scratch, owner.uid, owner.gid);
      chownSync(passwordFile, owner.uid, owner.gid);
    }
    chmodSync(scratch, 0o700);
    // C collation: text compares byte by byte, as SQLite's does (the path range scans rely on it).
    run(
      'initdb',
      ['-D', data, '-U', SUPERUSER, '--auth=scram-sha-256', `--pwfile=${passwordFile}`].concat([
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ]),
    );
    rmSync(passwordFile);
    const certificate = options.tls ? selfSignedCertificate(scratch, owner) : null;
    const port = await freeLoopbackPort();
    const settings = [
      `-c port=${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${scratch}`,
      // A scratch server: durability buys nothing and costs the shared cores time.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      ...(certificate
        ? ['-c ssl=on', `-c ssl_cert_file=${certificate}`, `-c ssl_key_file=${join(scratch, 'server.key')}`]
        : []),
    ].join(' ');
    run('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(scratch, 'server.log'), '-o', settings]);
    const url = `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`;
    let stopped = false;
    return {
      url,
      port,
      certificate,
      async createDatabase(name) {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${name}`);
        } finally {
          await client.end();
        }
        return url.replace(/\/postgres$/, `/${name}`);
      },
      stop() {
        if (stopped) return;
        stopped = true;
        try {
          run('pg_ctl', ['stop', '-m', 'immediate', '-w', '-D', data]);
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    const log = readLog(join(scratch, 'server.log'));
    rmSync(scratch, { recursive: true, force: true });
    throw log ? new Error(`${(error as Error).message}\n${log}`) : error;
  }
}

/** A key and a certificate for 127.0.0.1, made by `openssl`, readable only by the server's user. */
function selfSignedCertificate(scratch: string, owner: { uid: number; gid: number } | null): string {
  const key = join(scratch, 'server.key');
  const certificate = join(scratch, 'server.crt');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'].concat([
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      certificate,
    ]),
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`.trim());
  chmodSync(key, 0o600);
  if (owner) {
    chownSync(key, owner.uid, owner.gid);
    chownSync(certificate, owner.uid, owner.gid);
  }
  return certificate;
}

function unprivilegedIds(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync('id', [flag, UNPRIVILEGED_USER], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error(
      `running as root, PostgreSQL needs an unprivileged user '${UNPRIVILEGED_USER}' (useradd ${UNPRIVILEGED_USER})`,
    );
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
