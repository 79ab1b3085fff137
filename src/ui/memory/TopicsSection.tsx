import { useEffect, useState } from 'react';
import type { LabelPlan, TopicsState } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { TopicLabelsList } from './TopicLabelsList.tsx';
import { topicsApi } from './topics-api.ts';
import { topicsChanged } from './topics-changed.ts';
import { plural } from '../../core/index.ts';

/**
 * Topics on the memory page (C15): the table the person owns (create, rename, merge, delete) and the labelling
 * run. "Label turns…" only shows the plan — turns, requests, price and every opening that would leave; the run
 * starts on "Start", shows its progress and can be stopped. Nothing is labelled in the background.
 */
export function TopicsSection() {
  const store = useWeftStore();
  const [state, setState] = useState<TopicsState | null>(null);
  const [name, setName] = useState('');
  const [plan, setPlan] = useState<LabelPlan | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);

  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  const refresh = () => topicsApi.state().then(setState, fail);
  useEffect(() => void refresh(), []);
  useEffect(() => topicsChanged.setState({ revision: state ? `${state.revision}:${state.job.state}` : null }), [state]);
  const running = state?.job.state === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void refresh(), 300);
    return () => clearInterval(timer);
  }, [running]);
  if (!state) return null;
  const { record, revision, job } = state;
  // One source for every count on this card: the stored labels (the job's figures count turns read, not labelled).
  const counts = new Map<string, number>();
  for (const label of record.labels) for (const id of label.topicIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const labelled = record.labels.filter((label) => label.topicIds.length > 0).length;
  const edit = (run: () => Promise<TopicsState>) =>
    run().then(setState, (caught: unknown) => (fail(caught), refresh()));

  return (
    <section className="card-panel" data-testid="topics">
      <h2>Topics</h2>
      <ul className="memory-lines">
        {record.topics.map((topic) => (
          <li key={topic.id} className="topic-row" data-testid="topic" data-topic-id={topic.id}>
            {renaming?.id === topic.id ? (
              <form
                className="topic-rename"
                onSubmit={(event) => {
                  event.preventDefault();
                  setRenaming(null);
                  void edit(() => topicsApi.rename(revision, topic.id, renaming.name));
                }}
              >
                <input
                  className="input"
                  aria-label={`New name for ${topic.name}`}
                  value={renaming.name}
                  autoFocus
                  onChange={(event) => setRenaming({ id: topic.id, name: event.target.value })}
                />
                <button className="button small primary" type="submit" disabled={!renaming.name.trim()}>
                  Rename
                </button>
                <button className="button small ghost" type="button" onClick={() => setRenaming(null)}>
                  Cancel
                </button>
              </form>
            ) : (
              <span className="topic-name">{topic.name}</span>
            )}
            <button
              className="link"
              aria-expanded={opened === topic.id}
              data-testid="topic-turns"
              title="The turns this topic labels"
              onClick={() => setOpened(opened === topic.id ? null : topic.id)}
            >
              {plural(counts.get(topic.id) ?? 0, 'turn')}
            </button>
            <span className="topic-actions">
              <button
                className="button small ghost"
                onClick={() => setRenaming({ id: topic.id, name: topic.name })}
                disabled={renaming?.id === topic.id}
              >
                Rename
              </button>
              {record.topics.length > 1 && (
                <select
                  className="select small"
                  aria-label={`Merge ${topic.name} into`}
                  value=""
                  onChange={(event) => void edit(() => topicsApi.merge(revision, topic.id, event.target.value))}
                >
                  <option value="">Merge into…</option>
                  {record.topics
                    .filter((other) => other.id !== topic.id)
                    .map((other) => (
                      <option key={other.id} value={other.id}>
                        {other.name}
                      </option>
                    ))}
                </select>
              )}
              <button
                className="button small ghost danger"
                onClick={() => void edit(() => topicsApi.remove(revision, topic.id))}
              >
                Delete
              </button>
            </span>
            {opened === topic.id && <TopicLabelsList topic={topic} revision={revision} onChanged={setState} />}
          </li>
        ))}
      </ul>
      {record.topics.length === 0 && <p className="hint">No topics yet: add one to label turns and keep a dossier.</p>}
      <form
        className="memory-add"
        onSubmit={(event) => {
          event.preventDefault();
          void edit(() => topicsApi.create(revision, name)).then(() => setName(''));
        }}
      >
        <input
          className="input"
          aria-label="New topic"
          placeholder="New topic"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button className="button small" type="submit" disabled={!name.trim()}>
          Add topic
        </button>
      </form>
      <div className="topics-label">
        <p className="hint" data-testid="topics-labelled">
          {plural(labelled, 'turn')} labelled with a topic.
        </p>
        {running ? (
          <p className="button-row" data-testid="topics-progress">
            <span>
              Reading turns: {job.done} of {job.total}…
            </span>
            <button className="button small" onClick={() => void topicsApi.stop().then(refresh, fail)}>
              Stop
            </button>
          </p>
        ) : (
          <>
            {job.state !== 'idle' && (
              <p className="hint" data-testid="topics-job">
                Last run {job.state}: read {job.done} of {plural(job.total, 'turn')} ({job.byJudge} by the judge,{' '}
                {job.byName} by name match), {job.reused} unchanged and reused.
              </p>
            )}
            <div className="button-row">
              <button
                className="button small"
                disabled={record.topics.length === 0}
                onClick={() => void topicsApi.plan().then(setPlan, fail)}
              >
                Label turns…
              </button>
              {record.topics.length === 0 && (
                <span className="hint" data-testid="topics-label-why">
                  Add a topic first: turns are labelled with your topics.
                </span>
              )}
            </div>
          </>
        )}
        {plan && !running && (
          <div className="memory-plan" data-testid="topics-plan">
            <p>
              {plan.turns} turns: {plan.reused} labelled already (unchanged), {plan.toLabel} to label.{' '}
              {plan.judgeModelId
                ? `${plan.requests} requests to ${plan.judgeModelId}, about ${plan.inputTokens} input tokens${plan.price === null ? ' (price unknown)' : `, about $${plan.price.toFixed(4)}`}.`
                : 'No decision model is set: topics match by name on this machine; nothing is sent.'}
            </p>
            {plan.outgoing.length > 0 && (
              <details>
                <summary>What leaves this machine: each turn’s first {plan.openingChars} characters</summary>
                <ul>
                  {plan.outgoing.map((item) => (
                    <li key={item.turnKey}>
                      <code>{item.turnKey}</code>
                      <pre>{item.opening}</pre>
                    </li>
                  ))}
                </ul>
              </details>
            )}
            <div className="button-row">
              <button
                className="button small primary"
                disabled={plan.toLabel === 0}
                onClick={() => {
                  setPlan(null);
                  void topicsApi.start(plan).then(refresh, fail);
                }}
              >
                Start
              </button>
              <button className="button small ghost" onClick={() => setPlan(null)}>
                Cancel
              </button>
              {plan.toLabel === 0 && (
                <span className="hint" data-testid="topics-start-why">
                  Nothing to label: every turn is labelled already and unchanged.
                </span>
              )}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
