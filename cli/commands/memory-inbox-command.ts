import { randomUUID } from 'node:crypto';
import { WeftError } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import { liveServer, type LiveServer } from '../live-server.ts';
import type { Terminal } from '../terminal.ts';
import { decideDossierSentence, pendingDossierSentences } from './dossier-sentence-decision.ts';

/**
 * `weft memory inbox | accept <id> | reject <id>` (issue 29.1): the proposals waiting for the person, newest
 * first, and the person's decision on one, written to `$WEFT_HOME/memory/` the way the Memory page's Inbox does
 * (core `acceptProposal` / `rejectProposal`, each decision an event in memory's hash-chained journal).
 */
export async function runInbox(action: 'inbox' | 'accept' | 'reject', command: ParsedCommand, io: Terminal) {
  const [{ readServerFile, resolveWeftHome }, { MemoryStore, memoryDirectory }, core] = await Promise.all([
    import('../../runtime/fs/index.ts'),
    import('../../runtime/memory/index.ts'),
    import('../../src/core/memory/index.ts'),
  ]);
  const home = resolveWeftHome(io.env);
  const store = new MemoryStore({
    directory: memoryDirectory(home),
    now: Date.now,
    newId: randomUUID,
  });
  if (action === 'inbox') {
    const proposals = core.newestFirst((await store.read()).inbox);
    const shown = proposals.slice(0, (command.flags.limit as number | undefined) ?? 50);
    const sentences = await pendingDossierSentences(home);
    if (command.flags.json) {
      printJson(io.out, { proposals: shown, total: proposals.length, dossierSentences: sentences });
      return 0;
    }
    if (proposals.length === 0 && sentences.length === 0)
      io.out('The Inbox is empty: nothing is waiting for review.\n');
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
    for (const sentence of sentences)
      io.out(
        `${sentence.id}  ${new Date(sentence.proposedAt).toISOString()}  dossier sentence (topic ${sentence.topicId}, ${sentence.section})\n` +
          `    ${sentence.text}\n    cites: ${sentence.citations.join(', ')}\n`,
      );
    return 0;
  }
  const id = command.positionals[1];
  if (!id) throw new CliError('usage', `weft memory ${action} needs a proposal id (see weft memory inbox)`);
  const text = command.flags.text as string | undefined;
  // A running server writes memory too, and its queue serialises only its own writes: decide through it.
  const server = await liveServer(await readServerFile(home));
  // A dossier sentence waiting for review (issue 29.1) is decided by its own route: the dossier holds it.
  if ((await pendingDossierSentences(home)).some((sentence) => sentence.id === id)) {
    await decideDossierSentence(home, server, action, id);
    if (command.flags.json) printJson(io.out, { id, decision: action, lineId: null });
    else
      io.out(
        action === 'accept'
          ? `Accepted ${id}: it is in its topic's dossier now.\n`
          : `Rejected ${id}: its words are put aside and will not be proposed again.\n`,
      );
    return 0;
  }
  const lineId = server
    ? await decideThroughServer(server, action, id, text)
    : await decideHere(home, store, core, action, id, text ?? null);
  if (command.flags.json) printJson(io.out, { id, decision: action, lineId });
  else
    io.out(
      action === 'accept'
        ? `Accepted ${id}: it is in your profile now.\n`
        : `Rejected ${id}: it will not be proposed again.\n`,
    );
  return 0;
}

type Core = typeof import('../../src/core/memory/index.ts');
type Store = InstanceType<typeof import('../../runtime/memory/index.ts').MemoryStore>;

/** No server runs for this home: the decision is written here, the way the server's route writes it. */
async function decideHere(
  home: string,
  store: Store,
  core: Core,
  action: 'accept' | 'reject',
  id: string,
  text: string | null,
) {
  const [{ CanvasStore, canvasesDirectory }, { turnPutAside }] = await Promise.all([
    import('../../runtime/fs/index.ts'),
    import('../../runtime/memory/index.ts'),
  ]);
  const waiting = (await store.readInbox()).inbox.pending.find((each) => each.id === id);
  const canvases = new CanvasStore({ directory: canvasesDirectory(home) });
  if (action === 'accept' && waiting && (await turnPutAside(canvases, home, waiting.origin)))
    throw new WeftError(
      'memory-turn-put-aside',
      `The turn ${id} rests on is put aside (archived or deleted): reject it, or restore the turn first.`,
      409,
    );
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
  return 'lineId' in result ? (result.lineId ?? null) : null;
}

/** The running server's Inbox route decides, so its write queue holds this write too. */
async function decideThroughServer(server: LiveServer, action: 'accept' | 'reject', id: string, text?: string) {
  const response = await fetch(`${server.origin}/api/memory/inbox/${encodeURIComponent(id)}/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(action === 'accept' && text !== undefined ? { text } : {}),
  });
  const body = (await response.json().catch(() => null)) as {
    lineId?: string | null;
    error?: { code: string; message: string };
  } | null;
  if (!response.ok)
    throw new WeftError(
      body?.error?.code ?? 'memory-decision-failed',
      body?.error?.message ?? `HTTP ${response.status}`,
      400,
    );
  return body?.lineId ?? null;
}
