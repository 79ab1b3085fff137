import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../server/logger.ts';
import { startServer, type RunningServer, type StartServerOptions } from '../../server/start-server.ts';

/** A logger that keeps every line, so a test can search all of them (e.g. for keys). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

export interface TestServer extends RunningServer {
  home: string;
  logger: ReturnType<typeof memoryLogger>;
  /** fetch with the Bearer token and our own Host (the default). */
  api(path: string, init?: RequestInit): Promise<Response>;
  dispose(): Promise<void>;
}

/** A real Weft server on 127.0.0.1:0 with a temporary WEFT_HOME, no Ollama probing and no `.env`. */
export async function startTestServer(options: Partial<StartServerOptions> = {}): Promise<TestServer> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'weft-test-')));
  const logger = memoryLogger();
  const running = await startServer({ port: 0, env: {}, ollamaUrl: null, logger, backupDelayMs: 50, ...options, home });
  return {
    ...running,
    home,
    logger,
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${running.token}`);
      return fetch(running.origin + path, { ...init, headers });
    },
    async dispose() {
      await running.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
