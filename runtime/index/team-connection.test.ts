import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../tests/support/postgres-server.ts';
import { PostgresIndex } from './postgres-index.ts';
import { withTeamClient } from './team-roles.ts';

let withTls: PostgresServer;
let plain: PostgresServer;

beforeAll(async () => {
  [withTls, plain] = await Promise.all([startPostgres({ tls: true }), startPostgres()]);
}, 90_000);

afterAll(() => {
  withTls?.stop();
  plain?.stop();
});

/** Whether this connection, as the server sees it, is encrypted. */
async function encrypted(url: string): Promise<boolean> {
  return withTeamClient(url, async (client) => {
    const result = await client.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    return result.rows[0]!.ssl;
  });
}

describe('the team index uses TLS whenever the server offers it', () => {
  it('without sslmode, a server with TLS is spoken to over TLS, by `weft db` and by the index alike', async () => {
    const url = await withTls.createDatabase('offered');
    expect(await encrypted(url)).toBe(true);
    const index = await PostgresIndex.open(url);
    try {
      // Every connection the index holds to its database, as the server lists them, is encrypted.
      const held = await withTeamClient(withTls.url, async (client) => {
        const result = await client.query<{ ssl: boolean }>(
          `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = 'offered'`,
        );
        return result.rows.map((row) => row.ssl);
      });
      expect(held.length).toBeGreaterThan(0);
      expect(held.every(Boolean)).toBe(true);
    } finally {
      await index.close();
    }
  });

  it('without sslmode, a server without TLS is still reached, in the clear', async () => {
    const url = await plain.createDatabase('unoffered');
    expect(await encrypted(url)).toBe(false);
    const index = await PostgresIndex.open(url);
    await index.close();
  });

  it('an sslmode in the URL is the person’s choice and stands', async () => {
    const url = await withTls.createDatabase('chosen');
    expect(await encrypted(`${url}?sslmode=disable`)).toBe(false);
    // verify-full with the server's own certificate as the root: encrypted and checked.
    expect(await encrypted(`${url}?sslmode=verify-full&sslrootcert=${withTls.certificate}`)).toBe(true);
    // Checked against the system's roots, a self-signed certificate is refused; the refusal shows no password.
    const refused = await encrypted(`${url}?sslmode=verify-full`).then(
      () => null,
      (error: unknown) => error as Error & { code: string },
    );
    expect(refused?.code).toBe('index-open-failed');
    expect(refused?.message).toMatch(/certificate/i);
    expect(refused?.message).not.toContain(new URL(url).password);
    // A server without TLS is refused when the URL asks for it, never spoken to in the clear.
    const unoffered = await encrypted(`${await plain.createDatabase('demanded')}?sslmode=require`).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(unoffered?.message).toMatch(/SSL/);
  });
});
