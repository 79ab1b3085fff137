import { WeftError, type PutAsideItem, type PutAsideListResponse } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import { liveServer, type LiveServer } from '../live-server.ts';
import type { Terminal } from '../terminal.ts';

/**
 * `weft memory put-asides | restore <id>` (issue 29.2): the tombstones in force, newest first, and lifting one —
 * through the running server when one answers (its put-aside store serialises the write and journals it), else
 * here, journaled in memory's hash-chained journal the same way.
 */
export async function runPutAsides(action: 'put-asides' | 'restore', command: ParsedCommand, io: Terminal) {
  const [fs, memory] = await Promise.all([
    import('../../runtime/fs/index.ts'),
    import('../../runtime/memory/index.ts'),
  ]);
  const home = fs.resolveWeftHome(io.env);
  const server = await liveServer(await fs.readServerFile(home));
  const store = memory.journaledPutAsideStore(home);
  if (action === 'put-asides') {
    const limit = (command.flags.limit as number | undefined) ?? 50;
    const page = server
      ? await throughServer<PutAsideListResponse>(server, `/api/memory/put-asides?limit=${limit}`, 'GET')
      : await memory.putAsideItems(store, new fs.CanvasStore({ directory: fs.canvasesDirectory(home) }), {
          cursor: null,
          limit,
        });
    if (command.flags.json) {
      printJson(io.out, page);
      return 0;
    }
    if (page.total === 0) io.out('Nothing is put aside.\n');
    for (const item of page.items) io.out(describe(item));
    if (page.total > page.items.length) io.out(`${page.items.length} of ${page.total} shown (--limit).\n`);
    return 0;
  }
  const id = command.positionals[1];
  if (!id) throw new CliError('usage', 'weft memory restore needs a put-aside id (see weft memory put-asides)');
  if (server) await throughServer(server, `/api/memory/put-asides/${encodeURIComponent(id)}/restore`, 'POST');
  else await memory.restorePutAside(store, id, Date.now());
  if (command.flags.json) printJson(io.out, { id, restored: true });
  else io.out(`Restored ${id}: its words may come back on every read path.\n`);
  return 0;
}

function describe(item: PutAsideItem): string {
  const from =
    item.origin === null
      ? ''
      : 'nodeId' in item.origin
        ? `  turn: ${item.origin.canvasId}/${item.origin.nodeId}`
        : `  topic: ${item.origin.topicId} sentence ${item.origin.sentenceId}`;
  const words = item.excerpt === null ? '(its words are no longer stored)' : `"${item.excerpt}"`;
  return `${item.id.padStart(4)}  ${new Date(item.at).toISOString()}  ${item.kind}  ${item.reason}${from}\n      ${words}\n`;
}

async function throughServer<T>(server: LiveServer, path: string, method: 'GET' | 'POST'): Promise<T> {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}` },
  });
  const body = (await response.json().catch(() => null)) as (T & { error?: { code: string; message: string } }) | null;
  if (!response.ok)
    throw new WeftError(
      body?.error?.code ?? 'put-aside-request-failed',
      body?.error?.message ?? `HTTP ${response.status}`,
      400,
    );
  return body as T;
}
