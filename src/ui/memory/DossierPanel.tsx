import { useState } from 'react';
import {
  DOSSIER_SECTIONS,
  OFFLINE_RECEIPT_MODEL_ID,
  type Dossier,
  type DossierMode,
  type DossierPlan,
  type DossierView,
} from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { dossiersApi } from './dossiers-api.ts';
import { openCitation } from './open-citation.ts';
import { openSetting } from './open-setting.ts';
import { formatWhen, plural } from '../../core/index.ts';
import { KNOWN_AS_WORDS } from '../../core/memory/index.ts';
import { KnownAsBadge } from './KnownAsBadge.tsx';

/** #29.4: a sentence's interval in full, on hover of its "holds since". */
function heldTitle({ from, to }: { from: number; to: number | null }): string {
  const since = `Holds since ${formatWhen(from)}, when a version of this dossier first said these words`;
  return to === null ? `${since}; no later version dropped or reworded them.` : `${since}, until ${formatWhen(to)}.`;
}

const TITLES: Record<(typeof DOSSIER_SECTIONS)[number], string> = {
  what: 'What it is',
  decisions: 'Decisions taken',
  status: 'Where it stands',
  open: 'What is open',
};

/**
 * One topic's dossier (C15): the four sections, each sentence with its citations (a click opens the turn), a
 * sentence whose sources are all archived or deleted marked; each sentence marked inferred (a model's summary) with
 * the date it holds since and its reconstructed citations named (#29); Build / Update / Rebuild show their plan first (turns,
 * facts, tokens, price, and the exact text that would leave); the dropped-citation count; the history.
 */
export function DossierPanel({ view, onChanged }: { view: DossierView; onChanged: (view: DossierView) => void }) {
  const store = useWeftStore();
  const [plan, setPlan] = useState<DossierPlan | null>(null);
  const [running, setRunning] = useState(false);
  const [shown, setShown] = useState<Dossier | null>(null);
  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  const showPlan = (mode: DossierMode) => void dossiersApi.plan(view.topicId, mode).then(setPlan, fail);
  const run = (confirmed: DossierPlan) => {
    setRunning(true);
    setPlan(null);
    void dossiersApi
      .build(confirmed)
      .then((next) => {
        setShown(null);
        onChanged(next);
      }, fail)
      .finally(() => setRunning(false));
  };
  // A dossier is written by the default chat model; the offline receipt calls no model (the server refuses it).
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const offline = useWeft(
    (state) =>
      state.defaultModelId === OFFLINE_RECEIPT_MODEL_ID ||
      state.models.find((model) => model.id === state.defaultModelId)?.offline === true,
  );
  const dossier = shown ?? view.dossier;
  const retired = new Set(shown ? [] : view.retired);
  // Citations read as numbered sources (the key, a code, is in the tooltip): the same turn, the same number.
  const sources = new Map<string, number>();
  for (const section of DOSSIER_SECTIONS)
    for (const sentence of dossier?.sections[section] ?? [])
      for (const key of sentence.citations) if (!sources.has(key)) sources.set(key, sources.size + 1);

  return (
    <div className="dossier" data-testid="dossier" data-topic-id={view.topicId}>
      <div className="dossier-actions button-row">
        {view.dossier ? (
          <>
            <button className="button small" onClick={() => showPlan('update')} disabled={running || offline}>
              Update…
            </button>
            <button className="button small" onClick={() => showPlan('rebuild')} disabled={running || offline}>
              Rebuild…
            </button>
          </>
        ) : (
          <button className="button small" onClick={() => showPlan('update')} disabled={running || offline}>
            Build…
          </button>
        )}
        <span className="hint">
          {plural(view.unreadTurns, 'unread turn')}, {plural(view.pendingFacts.length, 'pending fact')}
          {view.struck > 0 && (
            <span data-testid="dossier-struck">, {plural(view.struck, 'sentence')} struck (Memory → Put aside)</span>
          )}
        </span>
        {running && <span data-testid="dossier-running">Writing the dossier…</span>}
      </div>
      {offline && (
        <p className="memory-why" data-testid="dossier-needs-model" title={`default model: ${defaultModelId}`}>
          A dossier is written by a chat model, and the default model is the offline receipt, which calls none.{' '}
          <button
            className="link"
            data-testid="dossier-open-settings"
            onClick={() => openSetting(store, 'default-model')}
          >
            Choose a default chat model in Settings → Models
          </button>
        </p>
      )}
      {plan && (
        <div className="dossier-plan memory-plan" data-testid="dossier-plan">
          <p>
            {plan.mode === 'rebuild' ? 'Rebuild from' : 'Read'} {plural(plan.turns.length, 'turn')} and{' '}
            {plural(plan.facts.length, 'pending fact')}
            {plan.turnsLeftOut > 0 ? ` (${plan.turnsLeftOut} more turns wait for the next run)` : ''}; one request to{' '}
            {plan.modelId}, about {plan.inputTokens} input tokens
            {plan.price === null ? ' (price unknown)' : `, about $${plan.price.toFixed(4)}`}.
          </p>
          <ul className="dossier-plan-turns">
            {plan.turns.map((turn) => (
              <li key={turn.turnKey} title={turn.turnKey}>
                {turn.title}
              </li>
            ))}
            {plan.facts.map((fact) => (
              <li key={fact.id}>A pending fact: “{fact.text}”</li>
            ))}
          </ul>
          <details>
            <summary>What leaves this machine (the exact request text)</summary>
            <pre data-testid="dossier-outgoing">{`${plan.outgoing.system}\n\n${plan.outgoing.prompt}`}</pre>
          </details>
          <div className="button-row">
            <button
              className="button small primary"
              data-testid="dossier-run"
              disabled={plan.turns.length === 0 && plan.facts.length === 0}
              onClick={() => run(plan)}
            >
              Send and write
            </button>
            <button className="button small ghost" onClick={() => setPlan(null)}>
              Cancel
            </button>
            {plan.turns.length === 0 && plan.facts.length === 0 && (
              <span className="hint" data-testid="dossier-run-why">
                Nothing new to read: no unread labelled turn and no pending fact.
              </span>
            )}
          </div>
        </div>
      )}
      {view.dropped.length > 0 && !shown && (
        <details className="dossier-dropped" data-testid="dossier-dropped">
          <summary>{plural(view.dropped.length, 'sentence')} dropped: cited a turn the model was not shown</summary>
          <ul>
            {view.dropped.map((sentence, index) => (
              <li key={index}>
                “{sentence.text}” <span className="hint">cited {sentence.unknownKeys.join(', ')}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {dossier ? (
        <>
          {shown && (
            <p className="hint" data-testid="dossier-old-version">
              Version {shown.version} of {view.dossier?.version}.{' '}
              <button className="link" onClick={() => setShown(null)}>
                back to the current version
              </button>
            </p>
          )}
          {DOSSIER_SECTIONS.map((section) => (
            <section key={section} className="dossier-section" data-section={section}>
              <h3>{TITLES[section]}</h3>
              {dossier.sections[section].length === 0 && <p className="hint">Nothing yet.</p>}
              <ul className="memory-lines">
                {dossier.sections[section].map((sentence) => (
                  <li
                    key={sentence.id}
                    data-testid="dossier-sentence"
                    data-sentence-id={sentence.id}
                    data-retired={retired.has(sentence.id) ? 'true' : 'false'}
                    className={retired.has(sentence.id) ? 'dossier-retired' : undefined}
                  >
                    <span>{sentence.text}</span> <KnownAsBadge knownAs="inferred" testId="dossier-known-as" />
                    {!shown && view.validity[sentence.id] && (
                      <span
                        className="hint"
                        data-testid="dossier-holds-since"
                        title={heldTitle(view.validity[sentence.id]!)}
                      >
                        {' '}
                        holds since {formatWhen(view.validity[sentence.id]!.from)}
                      </span>
                    )}
                    {retired.has(sentence.id) && (
                      <span className="hint" title="Every turn it cites is archived or deleted: recall leaves it out">
                        {' '}
                        · sources gone
                      </span>
                    )}{' '}
                    {!shown && (
                      <button
                        className="link"
                        data-testid="dossier-strike"
                        title="Put these words aside: out of the dossier, recall and every later update, until restored"
                        onClick={() => void dossiersApi.strike(view.topicId, sentence.id).then(onChanged, fail)}
                      >
                        strike
                      </button>
                    )}
                    {sentence.citations.map((key) => (
                      <button
                        key={key}
                        className="link dossier-citation"
                        data-testid="dossier-citation"
                        title={
                          view.citationKnownAs[key] ? `${key}: ${KNOWN_AS_WORDS[view.citationKnownAs[key]].why}` : key
                        }
                        data-known-as={view.citationKnownAs[key] ?? 'observed'}
                        aria-label={`Open source ${sources.get(key)}`}
                        onClick={() => void openCitation(store, key)}
                      >
                        [{sources.get(key)}
                        {view.citationKnownAs[key] && ` · ${KNOWN_AS_WORDS[view.citationKnownAs[key]].words}`}]
                      </button>
                    ))}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      ) : (
        <p className="hint">No dossier yet: Build reads this topic’s labelled turns and its pending facts.</p>
      )}
      {view.history.length > 0 && (
        <details className="dossier-history" data-testid="dossier-history">
          <summary>History ({plural(view.history.length, 'version')})</summary>
          <ul>
            {view.history.map((entry) => (
              <li key={entry.version}>
                <button
                  className="link"
                  onClick={() => void dossiersApi.version(view.topicId, entry.version).then(setShown, fail)}
                >
                  version {entry.version}
                </button>{' '}
                <span className="hint">
                  {entry.mode} · {formatWhen(entry.writtenAt)} · {plural(entry.sentences, 'sentence')} ·{' '}
                  {plural(entry.turnsRead, 'turn')}, {plural(entry.factsRead, 'fact')} read · {entry.dropped} dropped
                  {entry.modelId ? ` · ${entry.modelId}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
