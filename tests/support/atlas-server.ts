import { afterAll, beforeAll } from 'vitest';
import { closeAtlasService } from '../../server/atlas/atlas-registry.ts';
import { copyAtlasFixtures, type AtlasFixtures } from '../../server/atlas/testing/atlas-fixtures.ts';
import type { StartServerOptions } from '../../server/start-server.ts';
import { startTestServer, type TestServer } from './test-server.ts';

export interface AtlasServerOptions {
  /** The temporary folder's name prefix (to tell the copies apart when a run leaves one behind). */
  prefix?: string;
  /** Passed to `startTestServer` (the home is always the copy's `weftHome`). */
  server?: Partial<StartServerOptions>;
  /** Runs on the fresh copy before the server starts: settings to write, hashes to take. */
  prepare?: (fixtures: AtlasFixtures) => void;
}

export interface AtlasServer {
  /** The copy of the real session fixtures the server reads (set once the suite's `beforeAll` ran). */
  readonly fixtures: AtlasFixtures;
  readonly server: TestServer;
  /** Closes the server and its Atlas, then starts a new one on the same `WEFT_HOME` (a restart). */
  restart(): Promise<TestServer>;
}

/**
 * The real Weft server over a temporary copy of the real session fixtures, for the suite it is called in:
 * `beforeAll` copies the fixtures, points `WEFT_SESSION_ROOTS` at them (the server reads the roots from the
 * process environment) and starts the server on the copy's home; `afterAll` closes the Atlas and the server,
 * restores the variable as it was and deletes the copy.
 */
export function withAtlasServer(options: AtlasServerOptions = {}): AtlasServer {
  let fixtures: AtlasFixtures | null = null;
  let server: TestServer | null = null;
  let savedRoots: string | undefined;
  const start = () => startTestServer({ ...options.server, home: fixtures!.weftHome });
  const stop = async () => {
    if (!server) return;
    await closeAtlasService(server.context);
    await server.close();
    server = null;
  };
  beforeAll(async () => {
    fixtures = copyAtlasFixtures(options.prefix);
    savedRoots = process.env.WEFT_SESSION_ROOTS;
    process.env.WEFT_SESSION_ROOTS = fixtures.rootsVariable;
    options.prepare?.(fixtures);
    server = await start();
  });
  afterAll(async () => {
    await stop();
    if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
    else process.env.WEFT_SESSION_ROOTS = savedRoots;
    fixtures?.dispose();
  });
  const started = <T>(value: T | null, name: string): T => {
    if (value === null) throw new Error(`withAtlasServer: ${name} is read before the suite's beforeAll ran`);
    return value;
  };
  return {
    get fixtures() {
      return started(fixtures, 'fixtures');
    },
    get server() {
      return started(server, 'server');
    },
    async restart() {
      await stop();
      server = await start();
      return server;
    },
  };
}
