import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../tests/support/postgres-server.ts';
import { PostgresIndex, safeLocation } from './postgres-index.ts';

let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(() => server?.stop());

describe('the team index connection string is a secret', () => {
  it('a refused connection names the server, never the user or the password', async () => {
    const url = await server.createDatabase('secrets');
    const wrong = url.replace(/:([0-9a-f]+)@/, ':not-the-password-7f3a@');
    const refused = await PostgresIndex.open(wrong).then(
      () => null,
      (error: unknown) => error as Error & { code: string },
    );
    expect(refused?.code).toBe('index-open-failed');
    expect(refused?.message).toContain(`postgres://127.0.0.1:${server.port}/secrets`);
    expect(refused?.message).toMatch(/password authentication failed/);
    expect(refused?.message).not.toContain('not-the-password-7f3a');
    const opened = await PostgresIndex.open(url);
    try {
      expect(opened.location).toBe(`postgres://127.0.0.1:${server.port}/secrets`);
      // Logged by mistake (console.log, an error report), the object shows no credentials.
      expect(inspect(opened, { depth: 6 })).not.toContain(new URL(url).password);
      expect(JSON.stringify(opened)).not.toContain(new URL(url).password);
    } finally {
      await opened.close();
    }
  });

  it('safeLocation keeps host, port and database only', () => {
    expect(safeLocation('postgresql://ana:s3cret@db.lab.example:6432/weft?sslmode=require')).toBe(
      'postgresql://db.lab.example:6432/weft',
    );
    expect(safeLocation('not a url s3cret')).not.toContain('s3cret');
  });
});
