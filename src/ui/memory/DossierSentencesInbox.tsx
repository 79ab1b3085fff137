import { useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useStore } from 'zustand';
import type { DossierSentenceInbox, DossierSentenceProposal } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';
import { dossierSentencesApi } from './dossier-sentences-api.ts';
import { openCitation } from './open-citation.ts';
import { projectFactsChanged } from './project-facts-changed.ts';
import { formatWhen } from '../../core/index.ts';

const PAGE = 100;

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
  const [inbox, setInbox] = useState<DossierSentenceInbox | null>(null);
  const [proposals, setProposals] = useState<DossierSentenceProposal[]>([]);
  const [topicNames, setTopicNames] = useState<Record<string, string>>({});
  const loading = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);
  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  // Every `memory-changed` (a dossier run's proposals, a decision) rereads the first page.
  const memoryRead = useStore(memoryClient.view, (view) => view.loaded);
  useEffect(() => {
    let current = true;
    dossierSentencesApi.list({ cursor: null, limit: PAGE }).then((listed) => {
      if (!current) return;
      setInbox(listed);
      setProposals(listed.proposals);
      setTopicNames(listed.topicNames);
    }, fail);
    return () => {
      current = false;
    };
  }, [memoryRead]);

  const virtualizer = useVirtualizer({
    count: proposals.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 64,
    overscan: 6,
  });
  const lastShown = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  const next = inbox?.nextCursor ?? null;
  // Scrolled near the end of what is loaded: the next page (by the last id shown, never by position).
  useEffect(() => {
    if (next === null || loading.current || lastShown < proposals.length - 10) return;
    loading.current = true;
    dossierSentencesApi
      .list({ cursor: next, limit: PAGE })
      .then((page) => {
        setInbox(page);
        setProposals((shown) => [...shown, ...page.proposals]);
        setTopicNames((names) => ({ ...names, ...page.topicNames }));
      }, fail)
      .finally(() => (loading.current = false));
  }, [lastShown, next, proposals.length]);

  const decide = async (id: string, run: () => Promise<unknown>) => {
    try {
      await run();
      setProposals((shown) => shown.filter((each) => each.id !== id));
      setInbox((listed) => listed && { ...listed, total: Math.max(0, listed.total - 1) });
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
      <div className="memory-inbox-scroll" ref={scroller} data-testid="dossier-sentence-inbox">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => {
            const proposal = proposals[row.index]!;
            return (
              <div
                key={proposal.id}
                ref={virtualizer.measureElement}
                data-index={row.index}
                className="memory-proposal"
                data-testid="dossier-sentence-proposal"
                data-proposal-id={proposal.id}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
              >
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
              </div>
            );
          })}
        </div>
      </div>
      {proposals.length === 0 && <p className="hint">No dossier sentence is waiting.</p>}
    </>
  );
}
