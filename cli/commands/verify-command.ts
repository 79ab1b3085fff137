import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';

/**
 * `weft verify <canvas>`: checks a canvas record's event log against the chain head the store keeps beside it and
 * the anchors journal, and names the first bad event, how many events are missing at the end, a head file removed
 * or rewritten, and whether the record was created under the id of a deleted one. Exit 0 when intact, 1 when not.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const [{ CanvasStore, canvasesDirectory, resolveWeftHome }, { describeChainVerdict }] = await Promise.all([
    import('../../runtime/fs/index.ts'),
    import('../../src/core/index.ts'),
  ]);
  const store = new CanvasStore({ directory: canvasesDirectory(resolveWeftHome(io.env)) });
  const wanted = command.positionals[0]!;
  const { canvases } = await store.list();
  const byId = canvases.find((canvas) => canvas.id === wanted);
  const byName = canvases.filter((canvas) => canvas.name === wanted);
  if (!byId && byName.length > 1) {
    throw new CliError(
      'ambiguous',
      `${byName.length} canvases are named "${wanted}"; give its id: ${byName.map((canvas) => canvas.id).join(', ')}`,
    );
  }
  const summary = byId ?? byName[0];
  if (!summary) {
    const id = /^[A-Za-z0-9_-]{1,100}$/.test(wanted) ? wanted : null;
    // An unreadable record is not listed: read it to say why.
    if (id) await store.read(id);
    throw new CliError('not-found', `no canvas "${wanted}" under ${canvasesDirectory(resolveWeftHome(io.env))}`);
  }
  const { verdict, head, recreatedAfter } = await store.verify(summary.id);
  // A record created under the id of a deleted one is a new record: its log says nothing of the old one's.
  const message = recreatedAfter
    ? `${describeChainVerdict(verdict)} A new record: one under this id (${recreatedAfter.eventCount} events) was deleted on ${new Date(recreatedAfter.deletedAt).toISOString()}.`
    : describeChainVerdict(verdict);
  if (command.flags.json) {
    printJson(io.out, {
      id: summary.id,
      name: summary.name,
      verdict,
      head: head ? { eventCount: head.eventCount, lastEventHash: head.lastEventHash } : null,
      recreatedAfter,
      message,
    });
  } else {
    io.out(`${summary.name} (${summary.id}): ${message}\n`);
  }
  return verdict.status === 'intact' ? 0 : 1;
}
