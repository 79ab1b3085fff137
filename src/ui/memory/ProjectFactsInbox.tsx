import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { DossierList } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';
import { dossiersApi } from './dossiers-api.ts';
import { projectFactsChanged } from './project-facts-changed.ts';
import { topicsChanged } from './topics-changed.ts';

/**
 * The Inbox's project facts (C15, the former general inbox of the dossiers section): facts the memory judge
 * admitted whose turn no topic claims, each filed to a topic's dossier or discarded by the person.
 */
export function ProjectFactsInbox() {
  const store = useWeftStore();
  const [list, setList] = useState<DossierList | null>(null);
  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  const refresh = () => dossiersApi.list().then(setList, fail);
  const topicsRevision = useStore(topicsChanged, (state) => state.revision);
  // A judgement may have filed a fact here.
  const memoryRead = useStore(memoryClient.view, (view) => view.loaded);
  useEffect(() => void refresh(), [topicsRevision, memoryRead]);
  const decided = () => {
    projectFactsChanged.setState(({ revision }) => ({ revision: revision + 1 }));
    return refresh();
  };
  if (!list) return null;

  return (
    <>
      <h3>Project facts no topic claims</h3>
      <p className="hint">
        Facts about your projects that the memory judge admitted from your words, for a topic&apos;s dossier: file each
        to a topic, or discard it.
      </p>
      <ul className="memory-lines" data-testid="dossier-inbox">
        {list.inbox.map((fact) => (
          <li key={fact.id} className="memory-fact" data-testid="inbox-fact">
            <span className="memory-fact-text">“{fact.text}”</span>
            <select
              className="select small"
              aria-label="File to topic"
              value=""
              onChange={(event) => void dossiersApi.fileInbox(fact.id, event.target.value).then(decided, fail)}
            >
              <option value="">File to…</option>
              {list.dossiers.map((topic) => (
                <option key={topic.topicId} value={topic.topicId}>
                  {topic.name}
                </option>
              ))}
            </select>
            <button
              className="button small ghost"
              onClick={() => void dossiersApi.discardInbox(fact.id).then(decided, fail)}
            >
              Discard
            </button>
          </li>
        ))}
      </ul>
      {list.inbox.length === 0 && <p className="hint">Nothing waiting.</p>}
    </>
  );
}
