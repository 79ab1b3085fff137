import { useState } from 'react';
import type { DossierSentenceInbox, DossierSentenceProposal } from '../../../protocol/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';
import { dossierSentencesApi } from './dossier-sentences-api.ts';
import { openCitation } from './open-citation.ts';
import { projectFactsChanged } from './project-facts-changed.ts';
import { ProposalRows } from './ProposalRows.tsx';
import { usePagedList } from './use-paged-list.ts';
import { formatWhen } from '../../core/index.ts';

const SECTIONS: Record<DossierSentenceProposal['section'], string> = {
  what: 'what it is',
  decisions: 'decisions taken',
  status: 'where it stands',
  open: 'what is open',
};

/**
 * The Inbox's dossier sentences (issue 29.1): with "accept a dossier's new sentences automatically" off, each new
 * sentence a dossier update wrote waits here — its topic by name, its section, the turns it cites (one click each) —
 * until the person accepts it into the dossier or rejects it (its words are then put aside and never proposed
 * again). Newest first, windowed and paged from the server as it scrolls, like the facts above it.
 */
export function DossierSentencesInbox() {
  const store = useWeftStore();
  const [topicNames, setTopicNames] = useState<Record<string, string>>({});
  // Every `memory-changed` (a dossier run's proposals, a decision) rereads the first page.
  const paged = usePagedList<DossierSentenceProposal, DossierSentenceInbox>({
    list: (query) => dossierSentencesApi.list(query),
    itemsOf: (page) => page.proposals,
    estimateSize: 64,
    onPage: (page, first) => setTopicNames((names) => (first ? page.topicNames : { ...names, ...page.topicNames })),
  });
  const { page: inbox, items: proposals, remove, fail } = paged;

  const decide = async (id: string, run: () => Promise<unknown>) => {
    try {
      await run();
      remove(id);
      // The dossiers section rereads its open dossier: an accepted sentence is in it now.
      projectFactsChanged.setState(({ revision }) => ({ revision: revision + 1 }));
    } catch (caught) {
      fail(caught);
    }
    await memoryClient.refresh();
  };
  if (!inbox || (inbox.autoAccept && inbox.total === 0)) return null;

  return (
    <>
      <h3>
        Dossier sentences{' '}
        <span className="hint" data-testid="dossier-sentence-inbox-count">
          {inbox.total} waiting
        </span>
      </h3>
      <p className="hint">
        New sentences a dossier update wrote wait here (Settings: accepting them automatically is off). None is in a
        dossier, recall or any request until you accept it; a rejected one is put aside and never proposed again.
      </p>
      <ProposalRows paged={paged} scrollTestId="dossier-sentence-inbox" rowTestId="dossier-sentence-proposal">
        {(proposal) => (
          <>
            <span className="memory-proposal-text">“{proposal.text}”</span>
            <span className="hint">
              <span data-testid="dossier-sentence-topic" title={proposal.topicId}>
                {topicNames[proposal.topicId] ?? 'a topic deleted since'}
              </span>{' '}
              · {SECTIONS[proposal.section]} · {formatWhen(proposal.proposedAt)} · cites{' '}
              {proposal.citations.map((key, index) => (
                <button
                  key={key}
                  className="link"
                  title={key}
                  aria-label={`Open cited turn ${index + 1}`}
                  onClick={() => void openCitation(store, key)}
                >
                  [{index + 1}]
                </button>
              ))}
            </span>
            <span className="button-row">
              <button
                className="button small"
                data-testid="dossier-sentence-accept"
                onClick={() => void decide(proposal.id, () => dossierSentencesApi.accept(proposal.id))}
              >
                Accept
              </button>
              <button
                className="button small ghost"
                data-testid="dossier-sentence-reject"
                onClick={() => void decide(proposal.id, () => dossierSentencesApi.reject(proposal.id))}
              >
                Reject
              </button>
            </span>
          </>
        )}
      </ProposalRows>
      {proposals.length === 0 && <p className="hint">No dossier sentence is waiting.</p>}
    </>
  );
}
