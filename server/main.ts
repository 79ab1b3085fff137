import { fileURLToPath } from 'node:url';
import { resolveWeftHome } from '../runtime/fs/index.ts';
import { DEFAULT_PORT, startServer } from './start-server.ts';

/** Process entry for web mode: `WEFT_PORT` (default 4317, 0 = free), `WEFT_HOME` (default ~/.weft), UI from dist/ui. */
async function main(): Promise<void> {
  const rawPort = process.env.WEFT_PORT;
  const port = rawPort === undefined || rawPort === '' ? DEFAULT_PORT : Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`weft: WEFT_PORT must be a port number (got "${rawPort}").\n`);
    process.exitCode = 2;
    return;
  }
  const staticDir = fileURLToPath(new URL('../dist/ui/', import.meta.url));
  let running;
  try {
    running = await startServer({ port, home: resolveWeftHome(), staticDir });
  } catch (error) {
    const code = (error as { code?: string }).code;
    process.stderr.write(
      code === 'EADDRINUSE'
        ? `weft: port ${port} is in use; set WEFT_PORT=0 to pick a free one.\n`
        : code === 'already-running'
          ? `weft: ${(error as Error).message}\n`
          : `weft: could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`Weft is running: ${running.url}\n`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
