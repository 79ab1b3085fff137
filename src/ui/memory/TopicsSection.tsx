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
  const counts = new Map<string, number>();
  for (const label of record.labels) for (const id of label.topicIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const edit = (run: () => Promise<TopicsState>) =>
    run().then(setState, (caught: unknown) => (fail(caught), refresh()));

  return (
    <section className="card-panel" data-testid="topics">
      <h2>Topics</h2>
      <ul className="memory-lines">
        {record.topics.map((topic) => (
          <li key={topic.id} className="topic-row" data-testid="topic" data-topic-id={topic.id}>
            <span>{topic.name}</span>
            <button
              className="link"
              aria-expanded={opened === topic.id}
              data-testid="topic-turns"
              onClick={() => setOpened(opened === topic.id ? null : topic.id)}
            >
              {plural(counts.get(topic.id) ?? 0, 'turn')}
            </button>
            <button
              className="link"
              onClick={() => {
                const next = window.prompt('Rename topic', topic.name);
                if (next !== null) void edit(() => topicsApi.rename(revision, topic.id, next));
              }}
            >
              rename
            </button>
            <select
              aria-label={`Merge ${topic.name} into`}
              value=""
              onChange={(event) => void edit(() => topicsApi.merge(revision, topic.id, event.target.value))}
            >
              <option value="">merge into…</option>
              {record.topics
                .filter((other) => other.id !== topic.id)
                .map((other) => (
                  <option key={other.id} value={other.id}>
                    {other.name}
                  </option>
                ))}
            </select>
            <button className="link" onClick={() => void edit(() => topicsApi.remove(revision, topic.id))}>
              delete
            </button>
            {opened === topic.id && <TopicLabelsList topic={topic} revision={revision} onChanged={setState} />}
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void edit(() => topicsApi.create(revision, name)).then(() => setName(''));
        }}
      >
        <input
          aria-label="New topic"
          placeholder="New topic"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit">Add topic</button>
      </form>
      <div className="topics-label">
        {running ? (
          <p data-testid="topics-progress">
            Labelling {job.done} of {job.total}…{' '}
            <button onClick={() => void topicsApi.stop().then(refresh, fail)}>Stop</button>
          </p>
        ) : (
          <>
            {job.state !== 'idle' && (
              <p className="hint" data-testid="topics-job">
                Last run {job.state}: {job.done} of {job.total} labelled ({job.byJudge} by the judge, {job.byName} by
                name), {job.reused} reused.
              </p>
            )}
            <button disabled={record.topics.length === 0} onClick={() => void topicsApi.plan().then(setPlan, fail)}>
              Label turns…
            </button>
          </>
        )}
        {plan && !running && (
          <div data-testid="topics-plan">
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
            <button
              disabled={plan.toLabel === 0}
              onClick={() => {
                setPlan(null);
                void topicsApi.start(plan).then(refresh, fail);
              }}
            >
              Start
            </button>
            <button className="link" onClick={() => setPlan(null)}>
              Cancel
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
