import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { DossierList, DossierView } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { DossierPanel } from './DossierPanel.tsx';
import { dossiersApi } from './dossiers-api.ts';
import { topicsChanged } from './topics-changed.ts';

/**
 * Dossiers on the memory page (C15): one per topic (pick a topic to read, build or update its dossier), and the
 * general inbox — project facts no topic claims, each filed to a topic or discarded by the person.
 */
export function DossiersSection() {
  const store = useWeftStore();
  const [list, setList] = useState<DossierList | null>(null);
  const [view, setView] = useState<DossierView | null>(null);
  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  const refresh = () => dossiersApi.list().then(setList, fail);
  const open = (topicId: string) => void dossiersApi.view(topicId).then(setView, fail);
  const topicsRevision = useStore(topicsChanged, (state) => state.revision);
  useEffect(() => void refresh(), [topicsRevision]);
  if (!list) return null;
  const topics = list.dossiers;

  return (
    <section className="card-panel" data-testid="dossiers">
      <h2>Dossiers</h2>
      {topics.length === 0 && <p className="hint">Add a topic first: a dossier is kept per topic.</p>}
      <div className="dossier-topics">
        {topics.map((topic) => (
          <button
            key={topic.topicId}
            aria-pressed={view?.topicId === topic.topicId}
            data-testid="dossier-topic"
            onClick={() => open(topic.topicId)}
          >
            {topic.name}
            <span className="hint">
              {' '}
              {topic.version === null ? 'no dossier' : `v${topic.version}`}
              {topic.pending > 0 ? ` · ${topic.pending} facts` : ''}
            </span>
          </button>
        ))}
      </div>
      {view && (
        <DossierPanel
          key={view.topicId}
          view={view}
          onChanged={(next) => {
            setView(next);
            void refresh();
          }}
        />
      )}
      <h3>General inbox</h3>
      <p className="hint">Project facts the memory judge admitted whose turn no topic claims.</p>
      <ul className="memory-lines" data-testid="dossier-inbox">
        {list.inbox.map((fact) => (
          <li key={fact.id} data-testid="inbox-fact">
            <span>“{fact.text}”</span>
            <select
              aria-label="File to topic"
              value=""
              onChange={(event) =>
                void dossiersApi.fileInbox(fact.id, event.target.value).then(() => {
                  void refresh();
                  if (view?.topicId === event.target.value) open(view.topicId);
                }, fail)
              }
            >
              <option value="">file to…</option>
              {topics.map((topic) => (
                <option key={topic.topicId} value={topic.topicId}>
                  {topic.name}
                </option>
              ))}
            </select>
            <button className="link" onClick={() => void dossiersApi.discardInbox(fact.id).then(refresh, fail)}>
              discard
            </button>
          </li>
        ))}
      </ul>
      {list.inbox.length === 0 && <p className="hint">Nothing waiting.</p>}
    </section>
  );
}
