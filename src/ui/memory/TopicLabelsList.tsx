import { useEffect, useState } from 'react';
import type { Topic, TopicLabels, TopicsState } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { openCitation } from './open-citation.ts';
import { topicsApi } from './topics-api.ts';
import { formatWhen } from '../../core/index.ts';

/**
 * The turns one topic labels (C15), for the person to check: where each is from (runner or canvas, session or
 * canvas name, date), its opening line, and whether the judge or a name match put it there. A click opens the turn
 * (its node, or the Atlas's mirror of a session turn); "Remove label" takes the topic off it for good while the turn
 * is unchanged, and the dossier's next update no longer reads it.
 */
export function TopicLabelsList({
  topic,
  revision,
  onChanged,
}: {
  topic: Topic;
  revision: string;
  onChanged: (state: TopicsState) => void;
}) {
  const store = useWeftStore();
  const [labels, setLabels] = useState<TopicLabels | null>(null);
  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  const load = () => topicsApi.labels(topic.id).then(setLabels, fail);
  // Reloaded whenever the table changes (a run, a merge, a removal).
  useEffect(() => void load(), [topic.id, revision]);
  if (!labels) return null;
  if (labels.turns.length === 0)
    return (
      <p className="hint" data-testid="topic-labels">
        No turns are labelled {topic.name} yet.
      </p>
    );
  return (
    <ul className="memory-lines topic-labels" data-testid="topic-labels">
      {labels.turns.map((turn) => (
        <li key={turn.turnKey} className="topic-label" data-testid="topic-label" data-turn-key={turn.turnKey}>
          <span className="memory-badge">{turn.runner}</span>
          <button
            className="memory-line-text"
            disabled={!turn.found}
            title={turn.turnKey}
            onClick={() => void openCitation(store, turn.turnKey)}
          >
            <strong>{turn.title ?? '(gone)'}</strong>
            {turn.at !== null && <span className="hint"> · {formatWhen(turn.at)}</span>}
            <br />
            {turn.found ? turn.opening : <em>archived or no longer found</em>}
          </button>
          <span className="memory-badge" data-testid="topic-label-by">
            {turn.by === 'judge' ? 'by the judge' : 'name match'}
          </span>
          <button
            className="button small ghost"
            onClick={() => void topicsApi.unlabel(revision, topic.id, turn.turnKey).then(onChanged, fail)}
          >
            Remove label
          </button>
        </li>
      ))}
    </ul>
  );
}
