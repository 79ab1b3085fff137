import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { DossierSentenceInbox } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';
import { dossierSentencesApi } from './dossier-sentences-api.ts';
import { openCitation } from './open-citation.ts';
import { projectFactsChanged } from './project-facts-changed.ts';
import { formatWhen } from '../../core/index.ts';

/**
 * The Inbox's dossier sentences (issue 29.1): with "accept a dossier's new sentences automatically" off, each new
 * sentence a dossier update wrote waits here — its topic, its section, the turns it cites (one click each) — until
 * the person accepts it into the dossier or rejects it (its words are then put aside and never proposed again).
 */
export function DossierSentencesInbox() {
  const store = useWeftStore();
  const [inbox, setInbox] = useState<DossierSentenceInbox | null>(null);
  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  // Every `memory-changed` (a dossier run's proposals, a decision) rereads the list.
  const memoryRead = useStore(memoryClient.view, (view) => view.loaded);
  useEffect(() => {
    let current = true;
    dossierSentencesApi.list().then((listed) => current && setInbox(listed), fail);
    return () => {
      current = false;
    };
  }, [memoryRead]);
  const decide = async (id: string, run: () => Promise<unknown>) => {
    try {
      await run();
      setInbox((listed) => listed && { ...listed, proposals: listed.proposals.filter((each) => each.id !== id) });
      // The dossiers section rereads its open dossier: an accepted sentence is in it now.
      projectFactsChanged.setState(({ revision }) => ({ revision: revision + 1 }));
    } catch (caught) {
      fail(caught);
    }
    await memoryClient.refresh();
  };
  if (!inbox || (inbox.autoAccept && inbox.proposals.length === 0)) return null;

  return (
    <>
      <h3>Dossier sentences</h3>
      <p className="hint">
        New sentences a dossier update wrote wait here (Settings: accepting them automatically is off). None is in a
        dossier, recall or any request until you accept it; a rejected one is put aside and never proposed again.
      </p>
      <ul className="memory-lines" data-testid="dossier-sentence-inbox">
        {inbox.proposals.map((proposal) => (
          <li key={proposal.id} data-testid="dossier-sentence-proposal" data-proposal-id={proposal.id}>
            <span>“{proposal.text}”</span>{' '}
            <span className="hint">
              {proposal.section} · {formatWhen(proposal.proposedAt)} · cites
            </span>
            {proposal.citations.map((key) => (
              <button key={key} className="link" title={key} onClick={() => void openCitation(store, key)}>
                {key.slice(key.lastIndexOf('#'), key.lastIndexOf('#') + 10)}
              </button>
            ))}
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
          </li>
        ))}
      </ul>
      {inbox.proposals.length === 0 && <p className="hint">No dossier sentence is waiting.</p>}
    </>
  );
}
