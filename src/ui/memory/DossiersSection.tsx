import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { DossierList, DossierView } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { DossierPanel } from './DossierPanel.tsx';
import { dossiersApi } from './dossiers-api.ts';
import { projectFactsChanged } from './project-facts-changed.ts';
import { topicsChanged } from './topics-changed.ts';
import { plural } from '../../core/index.ts';

/**
 * Dossiers on the memory page (C15): one per topic (pick a topic to read, build or update its dossier). Project
 * facts no topic claims wait in the Inbox (`ProjectFactsInbox.tsx`); filing one there rereads the counts here.
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
  const factsRevision = useStore(projectFactsChanged, (state) => state.revision);
  useEffect(() => void refresh(), [topicsRevision, factsRevision]);
  // Build needs a chat model: read the default as it is now (it may have been set since the app opened).
  useEffect(() => {
    const state = store.getState();
    void state.loadSettings().then(() => state.loadModels());
  }, []);
  // A fact filed from the Inbox to the open topic is among its pending facts now.
  useEffect(() => {
    if (factsRevision > 0 && view) open(view.topicId);
  }, [factsRevision]);
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
            className="button small"
            aria-pressed={view?.topicId === topic.topicId}
            data-testid="dossier-topic"
            onClick={() => open(topic.topicId)}
          >
            {topic.name}
            <span className="hint">
              {topic.version === null ? 'no dossier' : `version ${topic.version}`}
              {topic.pending > 0 ? ` · ${plural(topic.pending, 'fact')}` : ''}
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
    </section>
  );
}
