import { randomUUID } from 'node:crypto';
import { WeftError } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';

/**
 * `weft memory inbox | accept <id> | reject <id>` (issue 29.1): the proposals waiting for the person, newest
 * first, and the person's decision on one, written to `$WEFT_HOME/memory/` the way the Memory page's Inbox does
 * (core `acceptProposal` / `rejectProposal`, each decision an event in memory's hash-chained journal).
 */
export async function runInbox(action: 'inbox' | 'accept' | 'reject', command: ParsedCommand, io: Terminal) {
  const [{ resolveWeftHome }, { MemoryStore, memoryDirectory }, core] = await Promise.all([
    import('../../runtime/fs/index.ts'),
    import('../../runtime/memory/index.ts'),
    import('../../src/core/memory/index.ts'),
  ]);
  const store = new MemoryStore({
    directory: memoryDirectory(resolveWeftHome(io.env)),
    now: Date.now,
    newId: randomUUID,
  });
  if (action === 'inbox') {
    const proposals = core.newestFirst((await store.read()).inbox);
    const shown = proposals.slice(0, (command.flags.limit as number | undefined) ?? 50);
    if (command.flags.json) {
      printJson(io.out, { proposals: shown, total: proposals.length });
      return 0;
    }
    if (proposals.length === 0) io.out('The Inbox is empty: nothing is waiting for review.\n');
    for (const proposal of shown) {
      const { canvasId, nodeId } = proposal.origin;
      io.out(
        `${proposal.id}  ${new Date(proposal.at).toISOString()}  ${proposal.document}\n` +
          `    ${proposal.text}\n` +
          `    evidence (${proposal.evidence}): "${proposal.span}"  turn: ${canvasId ?? '?'}/${nodeId ?? '?'}` +
          `  rule: ${proposal.path} path\n`,
      );
    }
    if (proposals.length > shown.length) io.out(`${shown.length} of ${proposals.length} shown (--limit).\n`);
    return 0;
  }
  const id = command.positionals[1];
  if (!id) throw new CliError('usage', `weft memory ${action} needs a proposal id (see weft memory inbox)`);
  const text = command.flags.text as string | undefined;
  const { result } = await store.update(null, (current) => {
    const context = { now: Date.now(), newId: randomUUID };
    const decided =
      action === 'accept'
        ? core.acceptProposal(current.profile, current.inbox, id, text ?? null, context)
        : core.rejectProposal(current.profile, current.inbox, id, context);
    if (!decided.ok)
      throw new WeftError(`memory-${decided.error}`, `Could not ${action} ${id}: ${decided.error}.`, 400);
    const { profile, inbox, events } = decided.value;
    return { change: { profile, inbox, events }, result: decided.value };
  });
  if (command.flags.json) printJson(io.out, { id, decision: action, lineId: result.lineId });
  else
    io.out(
      action === 'accept'
        ? `Accepted ${id}: it is in your profile now.\n`
        : `Rejected ${id}: it will not be proposed again.\n`,
    );
  return 0;
}
