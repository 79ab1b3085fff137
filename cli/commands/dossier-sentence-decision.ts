import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { PUT_ASIDE_EXCERPT_CHARS, WeftError, type DossierSentenceProposal } from '../../protocol/index.ts';
import type { LiveServer } from '../live-server.ts';

/** The dossier sentences waiting for review in `home` (issue 29.1), newest first; none without a dossier store. */
export async function pendingDossierSentences(home: string): Promise<DossierSentenceProposal[]> {
  const { dossierDatabasePath, openDossierStore } = await import('../../runtime/dossiers/index.ts');
  // A listing never creates the dossier store.
  if (!existsSync(dossierDatabasePath(home))) return [];
  const store = openDossierStore(home);
  try {
    return store.sentenceProposals().pending();
  } finally {
    store.close();
  }
}

/**
 * `weft memory accept|reject <id>` for a dossier sentence: through the running server's route when one answers,
 * else here the way that route decides — the next dossier version holds an accepted one; a rejected one's words
 * are put aside (journaled); the decision is an event in memory's hash-chained journal.
 */
export async function decideDossierSentence(
  home: string,
  server: LiveServer | null,
  action: 'accept' | 'reject',
  id: string,
): Promise<void> {
  if (server) {
    const response = await fetch(`${server.origin}/api/dossier-sentences/${encodeURIComponent(id)}/${action}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}` },
    });
    if (response.ok) return;
    const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new WeftError(
      body?.error?.code ?? 'dossier-sentence-failed',
      body?.error?.message ?? `HTTP ${response.status}`,
      400,
    );
  }
  const [{ openDossierStore }, memory, core] = await Promise.all([
    import('../../runtime/dossiers/index.ts'),
    import('../../runtime/memory/index.ts'),
    import('../../src/core/index.ts'),
  ]);
  const { sentenceEvent } = await import('../../src/core/memory/index.ts');
  const journal = new memory.MemoryStore({ directory: memory.memoryDirectory(home), now: Date.now, newId: randomUUID });
  const store = openDossierStore(home);
  try {
    const proposals = store.sentenceProposals();
    if (action === 'accept') {
      const { proposal, version } = proposals.accept(id);
      await journal.update(null, () => ({
        change: { events: [sentenceEvent('memory-accepted', proposal, { version })] },
        result: null,
      }));
      return;
    }
    const proposal = proposals.reject(id);
    await journal.update(null, () => ({
      change: { events: [sentenceEvent('memory-rejected', proposal)] },
      result: null,
    }));
    await memory.journaledPutAsideStore(home).append([
      {
        op: 'put-aside',
        key: core.contentKey('dossier-sentence', proposal.text),
        kind: 'dossier-sentence',
        reason: 'rejected',
        at: Date.now(),
        origin: { topicId: proposal.topicId, sentenceId: proposal.id },
        excerpt: proposal.text.slice(0, PUT_ASIDE_EXCERPT_CHARS),
      },
    ]);
  } finally {
    store.close();
  }
}
