import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startPostgres } from './postgres-server.ts';

describe('the PostgreSQL test server', () => {
  it('starts from the installed binaries on loopback, answers SQL with pg_trgm available, and is gone after stop', async () => {
    const server = await startPostgres();
    const seen = { dataFolder: '' };
    try {
      const url = await server.createDatabase('harness_check');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const row = (
          await client.query<{ address: string; collation: string; folder: string }>(
            `SELECT host(inet_server_addr()) AS address, datcollate AS collation, current_setting('data_directory') AS folder
             FROM pg_database WHERE datname = current_database()`,
          )
        ).rows[0]!;
        expect(row.address).toBe('127.0.0.1');
        expect(row.collation).toBe('C');
        seen.dataFolder = row.folder;
        await client.query('CREATE EXTENSION pg_trgm');
        expect(
          (await client.query('SELECT similarity($1, $2) > 0.5 AS close', ['weft find', 'weft finds'])).rows,
        ).toEqual([{ close: true }]);
      } finally {
        await client.end();
      }
      // A wrong password is refused: the server checks passwords even on loopback.
      const intruder = new pg.Client({ connectionString: url.replace(/:[0-9a-f]+@/, ':wrong@') });
      await expect(intruder.connect()).rejects.toThrow(/password authentication failed/);
    } finally {
      server.stop();
    }
    expect(existsSync(seen.dataFolder)).toBe(false);
    const after = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'weft', database: 'postgres' });
    await expect(after.connect()).rejects.toThrow(/ECONNREFUSED/);
  });
});
