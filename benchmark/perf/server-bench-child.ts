/**
 * Child process for `server.bench.ts`: runs either the scripted provider or the Weft server in its
 * own process (as in real use: browser, server and provider are separate), and prints one JSON line.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, startServer } from '../../server/index.ts';
import { startScriptedProvider } from '../../tests/support/index.ts';

const role = process.argv[2];
if (role === 'provider') {
  const provider = await startScriptedProvider();
  provider.setDefault({ text: 'Hello there, this is a short answer.', chunkSize: 6 });
  const tokens = Number(process.argv[3] ?? 20_000);
  provider.byModel.long = { chunks: Array.from({ length: tokens }, (_, index) => `t${index % 10} `) };
  process.stdout.write(JSON.stringify({ url: provider.url }) + '\n');
} else if (role === 'server') {
  const home = await mkdtemp(join(tmpdir(), 'weft-bench-'));
  const server = await startServer({ port: 0, home, env: {}, ollamaUrl: null, logger: silentLogger });
  // A normal exit on SIGINT, so `--cpu-prof` (compare.bench.ts's WEFT_BENCH_CPU_PROF) writes its profile.
  process.once('SIGINT', () => process.exit(0));
  process.stdout.write(JSON.stringify({ origin: server.origin, token: server.token, home }) + '\n');
} else {
  process.stderr.write('usage: server-bench-child.ts provider|server\n');
  process.exitCode = 2;
}
