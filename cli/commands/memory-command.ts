import type { MemoryJournalVerdict } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';
import { runHistory } from './memory-history-command.ts';
import { runInbox } from './memory-inbox-command.ts';
import { runPutAsides } from './memory-put-asides-command.ts';

/**
 * `weft memory journal` (issue 27.4): memory's two hash-chained journals under `$WEFT_HOME/memory/` — the
 * profile's and the topics' — newest first, each entry as the sentence the Memory page shows, its rule and its
 * evidence turn. `--verify` checks both chains against the heads kept beside them, as `weft verify` does for a
 * canvas: exit 0 when both are intact, 1 when not. `inbox`, `accept`, `reject`: `memory-inbox-command.ts`;
 * `history <line>`: `memory-history-command.ts`; `put-asides`, `restore`: `memory-put-asides-command.ts`.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const [action] = command.positionals;
  if (action === 'inbox' || action === 'accept' || action === 'reject') return runInbox(action, command, io);
  if (action === 'history') return runHistory(command, io);
  if (action === 'put-asides' || action === 'restore') return runPutAsides(action, command, io);
  if (action !== 'journal')
    throw new CliError(
      'usage',
      `unknown memory action "${action}" (journal, inbox, accept, reject, history, put-asides, restore)`,
    );
  const [{ resolveWeftHome }, { MemoryJournals }, { describeJournalEntry, journalEntryEvidence, journalEntryRule }] =
    await Promise.all([
      import('../../runtime/fs/index.ts'),
      import('../../runtime/memory/index.ts'),
      import('../../src/core/memory/index.ts'),
    ]);
  const journals = new MemoryJournals(resolveWeftHome(io.env));
  if (command.flags.verify) {
    const verified = await journals.verify();
    if (command.flags.json) printJson(io.out, verified);
    else for (const entry of verified.journals) io.out(`${entry.file}: ${entry.message}\n`);
    return verified.intact ? 0 : 1;
  }
  const page = await journals.page({
    cursor: null,
    limit: (command.flags.limit as number | undefined) ?? 50,
    verdict: (command.flags.verdict as MemoryJournalVerdict | undefined) ?? null,
    op: null,
  });
  if (command.flags.json) {
    printJson(io.out, page);
    return 0;
  }
  if (page.entries.length === 0) io.out('No journal entries.\n');
  for (const entry of page.entries) {
    const evidence = journalEntryEvidence(entry.event);
    const turn = evidence ? `  turn: ${evidence.canvasId}${evidence.nodeId ? `/${evidence.nodeId}` : ''}` : '';
    io.out(
      `${new Date(entry.event.at).toISOString()}  ${entry.verdict.padEnd(10)} ${describeJournalEntry(entry)}\n` +
        `    ${entry.journal} #${entry.index + 1}  rule: ${journalEntryRule(entry.event)}${turn}\n`,
    );
  }
  if (page.total > page.entries.length) io.out(`${page.entries.length} of ${page.total} shown (--limit).\n`);
  return 0;
}
