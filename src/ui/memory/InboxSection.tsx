import { useState } from 'react';
import type { MemoryInboxResponse, MemoryProposal } from '../../../protocol/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';
import { inboxApi } from './inbox-api.ts';
import { openOrigin } from './open-origin.ts';
import { ProjectFactsInbox } from './ProjectFactsInbox.tsx';
import { DossierSentencesInbox } from './DossierSentencesInbox.tsx';
import { ProposalRows } from './ProposalRows.tsx';
import { usePagedList } from './use-paged-list.ts';
import { formatWhen } from '../../core/index.ts';

const RULES: Record<MemoryProposal['path'], string> = {
  judge: 'the memory judge',
  rule: 'the rules in Weft',
};

/**
 * The Inbox on the memory page (issue 29.1): every fact proposed for the profile that waits for the person,
 * newest first and windowed (the Journal's virtualiser), each with the words of theirs it rests on, one click to
 * the turn, the rule that admitted it, and Accept / Edit then accept / Reject. Nothing here is in any request
 * until accepted; a rejected proposal is refused like a deleted line and is never proposed again.
 */
export function InboxSection() {
  const store = useWeftStore();
  // Every `memory-changed` (a judgement, a decision here or from `weft memory accept`) rereads the Inbox.
  const paged = usePagedList<MemoryProposal, MemoryInboxResponse>({
    list: (query) => inboxApi.list(query),
    itemsOf: (page) => page.proposals,
    estimateSize: 72,
  });
  const { page: inbox, items: proposals, remove, fail } = paged;
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);

  async function decide(id: string, run: () => Promise<unknown>) {
    try {
      await run();
      setEditing(null);
      // Decided on the server: gone from the list now, before the reread that `memory-changed` brings.
      remove(id);
    } catch (caught) {
      fail(caught);
    }
    // The person's decision changes the profile: `memory-changed` rereads the first page.
    await memoryClient.refresh();
  }

  return (
    <section className="card-panel memory-inbox" data-testid="memory-inbox">
      <h2>
        Inbox{' '}
        <span className="hint" data-testid="memory-inbox-count">
          {inbox?.total ?? 0} waiting
        </span>
      </h2>
      <p className="hint">
        {inbox?.autoAccept
          ? 'Facts about you are accepted automatically (Settings); nothing waits here until you switch that off.'
          : 'Facts proposed from your questions wait here. None is sent with any request until you accept it; a rejected one is never proposed again.'}
      </p>
      <ProposalRows paged={paged} scrollTestId="memory-inbox-scroll" rowTestId="memory-proposal">
        {(proposal) => {
          const { canvasId, nodeId } = proposal.origin;
          const isEditing = editing?.id === proposal.id;
          return (
            <>
              {isEditing ? (
                <input
                  className="input"
                  data-testid="memory-proposal-edit-text"
                  aria-label="The line as you want it kept"
                  value={editing.text}
                  onChange={(event) => setEditing({ id: proposal.id, text: event.target.value })}
                />
              ) : (
                <span className="memory-proposal-text" data-testid="memory-proposal-text">
                  {proposal.text}
                </span>
              )}
              <span className="hint" data-testid="memory-proposal-evidence">
                {proposal.evidence === 'stated' ? 'You said' : 'Read between the lines of'}: “{proposal.span}”{' · '}
                {proposal.document} · proposed by {RULES[proposal.path]} · {formatWhen(proposal.at)}
              </span>
              <span className="button-row">
                {canvasId && nodeId && (
                  <button
                    className="link"
                    data-testid="memory-proposal-open"
                    onClick={() => void openOrigin(store, canvasId, nodeId).catch(fail)}
                  >
                    open turn
                  </button>
                )}
                {isEditing ? (
                  <>
                    <button
                      className="button small"
                      data-testid="memory-proposal-accept-edited"
                      disabled={!editing.text.trim()}
                      onClick={() => void decide(proposal.id, () => inboxApi.accept(proposal.id, editing.text))}
                    >
                      Accept edited
                    </button>
                    <button className="button small ghost" onClick={() => setEditing(null)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <>
                    <button
                      className="button small"
                      data-testid="memory-proposal-accept"
                      onClick={() => void decide(proposal.id, () => inboxApi.accept(proposal.id))}
                    >
                      Accept
                    </button>
                    <button
                      className="button small ghost"
                      data-testid="memory-proposal-edit"
                      onClick={() => setEditing({ id: proposal.id, text: proposal.text })}
                    >
                      Edit…
                    </button>
                    <button
                      className="button small ghost"
                      data-testid="memory-proposal-reject"
                      onClick={() => void decide(proposal.id, () => inboxApi.reject(proposal.id))}
                    >
                      Reject
                    </button>
                  </>
                )}
              </span>
            </>
          );
        }}
      </ProposalRows>
      {inbox && proposals.length === 0 && <p className="hint">Nothing waiting for review.</p>}
      <DossierSentencesInbox />
      <ProjectFactsInbox />
    </section>
  );
}
