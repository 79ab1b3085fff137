// Builds the minimal @xyflow/react page (`tests/support/minimal-flow/`) with Vite into a temporary folder and serves it on
// 127.0.0.1, so `bench:ui` can weigh the app's heap against React Flow's own.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { repoRoot } from '../../tests/support/index.ts';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

export async function serveMinimalFlowPage(): Promise<{ url: string; close(): Promise<void> }> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'weft-minimal-flow-'));
  await build({
    root: path.join(repoRoot, 'tests/support/minimal-flow'),
    configFile: false,
    logLevel: 'warn',
    base: './',
    build: { outDir, emptyOutDir: true },
  });
  const server: Server = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = path.join(outDir, name === '/' ? 'index.html' : path.normalize(name));
    if (!file.startsWith(outDir)) return void response.writeHead(404).end();
    readFile(file).then(
      (body) =>
        response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
