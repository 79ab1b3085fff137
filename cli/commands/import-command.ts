import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ImportStatus } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';
import { liveServer, type LiveServer } from '../live-server.ts';

interface ImportSummary {
  file: string;
  via: 'server' | 'direct';
  conversations: number;
  canvasIds: string[];
  /** Messages whose words were put aside before: they arrive archived (issue 29.2). */
  putAside: number;
}

/**
 * `weft import <conversations.json>`: a ChatGPT or Claude.ai export, one new canvas per conversation. When a Weft
 * server runs for this home, the file goes through it (so an open app shows the canvases at once); otherwise it is
 * imported straight into `$WEFT_HOME/canvases`. Ctrl-C cancels, keeping nothing. A malformed file exits 1 naming its
 * line and column.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const file = resolve(io.cwd, command.positionals[0]!);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new CliError('not-found', `no file ${file}`);
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once('SIGINT', onInterrupt);
  const progress = progressLine(io);
  try {
    const { readServerFile, resolveWeftHome } = await import('../../runtime/fs/index.ts');
    const home = resolveWeftHome(io.env);
    const server = await liveServer(await readServerFile(home));
    const summary = server
      ? await viaServer(server, file, info.size, controller.signal, progress.update)
      : await direct(home, file, controller.signal, progress.update);
    progress.done();
    if (command.flags.json) printJson(io.out, summary);
    else
      io.out(
        `imported ${summary.conversations} conversation${summary.conversations === 1 ? '' : 's'} from ${file} into ${summary.canvasIds.length} canvas${summary.canvasIds.length === 1 ? '' : 'es'}${summary.via === 'server' ? ' (through the running Weft)' : ''}\n` +
          (summary.putAside > 0
            ? `${summary.putAside} message${summary.putAside === 1 ? '' : 's'} put aside before arrived archived (weft memory put-asides)\n`
            : ''),
      );
    return 0;
  } catch (error) {
    progress.done();
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('import-')) throw new CliError(code, (error as Error).message);
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

async function direct(
  home: string,
  file: string,
  signal: AbortSignal,
  onProgress: (bytes: number, total: number) => void,
): Promise<ImportSummary> {
  const [
    { CanvasStore, canvasesDirectory, ensureWeftHome, ensurePrivateDirectory, readPutAsides },
    runtimeImport,
    { nodeHashPort },
    { journaledPutAsideStore },
  ] = await Promise.all([
    import('../../runtime/fs/index.ts'),
    import('../../runtime/import/index.ts'),
    import('../../runtime/hash/index.ts'),
    import('../../runtime/memory/index.ts'),
  ]);
  ensureWeftHome(home);
  ensurePrivateDirectory(canvasesDirectory(home));
  const newId = runtimeImport.importIdGenerator();
  const result = await runtimeImport.importConversations(file, {
    canvases: new CanvasStore({ directory: canvasesDirectory(home), putAsides: journaledPutAsideStore(home) }),
    stagingDirectory: ensurePrivateDirectory(`${home}/imports`),
    importId: newId(),
    now: Date.now,
    newId,
    hash: nodeHashPort,
    putAsides: readPutAsides(home),
    signal,
    onProgress: (progress) => onProgress(progress.bytesRead, progress.totalBytes),
  });
  return {
    file,
    via: 'direct',
    conversations: result.conversations,
    canvasIds: result.canvasIds,
    putAside: result.putAside,
  };
}

async function viaServer(
  server: LiveServer,
  file: string,
  size: number,
  signal: AbortSignal,
  onProgress: (bytes: number, total: number) => void,
): Promise<ImportSummary> {
  const { ImportStatusSchema } = await import('../../protocol/index.ts');
  const headers = { authorization: `Bearer ${server.token}` };
  const name = encodeURIComponent(file.split(/[\\/]/).pop() ?? 'conversations.json');
  const response = await fetch(`${server.origin}/api/imports/conversations?name=${name}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(size) },
    body: createReadStream(file) as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit);
  if (!response.ok) throw new CliError('import-failed', `the running Weft refused the file (HTTP ${response.status})`);
  let status: ImportStatus = ImportStatusSchema.parse(await response.json());
  let cancelled = false;
  while (status.state === 'running') {
    if (signal.aborted && !cancelled) {
      cancelled = true;
      await fetch(`${server.origin}/api/imports/${status.importId}`, { method: 'DELETE', headers });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    status = ImportStatusSchema.parse(
      await (await fetch(`${server.origin}/api/imports/${status.importId}`, { headers })).json(),
    );
    onProgress(status.bytesRead, status.totalBytes);
  }
  if (status.state !== 'done') {
    const error = status.error;
    throw new CliError(error?.code ?? 'import-failed', error?.message ?? 'the import did not finish');
  }
  return {
    file,
    via: 'server',
    conversations: status.conversations,
    canvasIds: status.canvasIds,
    putAside: status.putAside ?? 0,
  };
}

/** One line on stderr, only on a terminal. */
function progressLine(io: Terminal): { update: (bytes: number, total: number) => void; done: () => void } {
  let drawn = false;
  let last = 0;
  return {
    update(bytes, total) {
      if (!io.errIsTTY || performance.now() - last < 100) return;
      last = performance.now();
      const percent = total > 0 ? Math.round((bytes / total) * 100) : 0;
      io.err(`\rimporting… ${String(percent).padStart(3)}%  ${(bytes / 1048576).toFixed(1)} MB`);
      drawn = true;
    },
    done() {
      if (drawn) io.err('\r\x1b[K');
      drawn = false;
    },
  };
}
