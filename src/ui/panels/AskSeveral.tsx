import { useCallback, useMemo, useState } from 'react';
import { MODEL_SET_SAMPLES_MAX, type ModelSet, type QuestionNode } from '../../../protocol/index.ts';
import { memoryReadingOf, plural, setLimits, shortHash } from '../../core/index.ts';
import { useEscape, useWeft, useWeftStore } from '../kit/index.ts';
import { useRecallPlan } from '../recall/use-recall-plan.ts';
import { memoryClient, modelSetPlan } from '../store/index.ts';
import { useStore } from 'zustand';
import { formatTokens, tokenCounterFor, useTokenizersVersion } from '../tokens/index.ts';
import { formatPrice } from './ReplayList.tsx';

/** A fresh set: the node's own, else the model the node is asked with now and nothing else picked yet. */
function startingSet(node: QuestionNode, defaultModelId: string | null): ModelSet {
  const model = node.model ?? defaultModelId;
  return node.modelSet ?? { models: model ? [model] : [], samples: 1, temperature: 0.7 };
}

/**
 * Issue 31: "Ask several…" beside the model picker. The person picks two or more models (agents are not models
 * here), samples per model and the set's temperature; the plan shows what the set is compiled for (its most
 * restrictive model), the one context hash every answer will carry, and the price per model and in total, and Ask
 * is refused with the words why when the plan is over the per-ask cap in Settings. Asking stores the set on the
 * node and sends every request; each answer becomes a version.
 */
export function AskSeveral({ node }: { node: QuestionNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button className="button small" data-testid="ask-several" onClick={() => setOpen(true)}>
        Ask several…
      </button>
      {open && <AskSeveralDialog node={node} onClose={() => setOpen(false)} />}
    </>
  );
}

function AskSeveralDialog({ node, onClose }: { node: QuestionNode; onClose: () => void }) {
  const store = useWeftStore();
  const models = useWeft((state) => state.models);
  const graph = useWeft((state) => state.graph);
  const shown = useWeft((state) => state.shown);
  const settings = useWeft((state) => state.settings);
  const tokenizers = useTokenizersVersion();
  // C14: the same [Memory] block the run carries, so the context hash shown is the one the answers will carry.
  const memoryLoaded = useStore(memoryClient.view, (view) => view.loaded);
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const [draft, setDraft] = useState<ModelSet>(() => startingSet(node, defaultModelId));
  const [running, setRunning] = useState(false);
  useEscape(true, onClose);
  // C16: the recall block the run will fetch, planned (as the run plans it) for the set's smallest window, so the
  // context hash previewed is the one sent; while it loads the hash is not shown.
  const windowSetBy = useMemo(() => {
    const limited = draft.models.length >= 2 ? setLimits(draft, models) : null;
    return limited?.ok ? limited.value.windowSetBy : null;
  }, [draft, models]);
  const recallNode = useMemo(() => (windowSetBy ? { ...node, model: windowSetBy } : node), [node, windowSetBy]);
  const recall = useRecallPlan(recallNode).entry;
  const recallBlock = recall?.state === 'ready' ? recall.plan.block : null;
  const planned = useMemo(() => {
    void tokenizers;
    if (draft.models.length < 2) return null;
    const memoryBlock =
      graph && memoryLoaded ? memoryClient.blockFor(graph.canvas.id, 'chat', memoryReadingOf(node)) : null;
    const count = (id: string) => tokenCounterFor(id).count;
    const blocks = { memoryBlock, recallBlock };
    return modelSetPlan({ graph, shown, models, settings }, node.id, 'preview', blocks, count, draft);
  }, [graph, shown, models, settings, node, draft, tokenizers, memoryLoaded, recallBlock]);
  const toggle = useCallback(
    (id: string) =>
      setDraft((current) => ({
        ...current,
        models: current.models.includes(id) ? current.models.filter((each) => each !== id) : [...current.models, id],
      })),
    [],
  );
  const ask = async () => {
    const state = store.getState();
    if (!state.apply({ type: 'edit-node', nodeId: node.id, patch: { modelSet: draft } })) return;
    setRunning(true);
    const result = await state.askSet(node.id);
    setRunning(false);
    if (result.contextHash && result.answers > 0)
      state.toast(
        'info',
        'model-set-asked',
        `${plural(result.answers, 'answer')}, one context: ${shortHash(result.contextHash)}`,
      );
    if (result.answers > 0) onClose();
  };
  const plan = planned?.ok ? planned.plan : null;
  const refusal = planned && !planned.ok ? planned.message : (plan?.refusal ?? null);
  const label = (id: string) => models.find((model) => model.id === id)?.label ?? id;
  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="dialog"
        role="dialog"
        aria-label="Ask several models"
        data-testid="ask-several-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Ask several models</h2>
        <p>
          Every model gets the same context, compiled once for the most restrictive of them; each answer becomes a
          version of this question, and the one you select flows downstream.
        </p>
        <fieldset className="set-models" data-testid="set-models">
          <legend>Models</legend>
          {models.map((model) => (
            <label key={model.id} className="switch">
              <input
                type="checkbox"
                data-testid={`set-model-${model.id}`}
                checked={draft.models.includes(model.id)}
                onChange={() => toggle(model.id)}
              />
              {model.label}
            </label>
          ))}
        </fieldset>
        <div className="button-row">
          <label>
            Samples per model{' '}
            <input
              type="number"
              className="input small"
              data-testid="set-samples"
              min={1}
              max={MODEL_SET_SAMPLES_MAX}
              value={draft.samples}
              onChange={(event) =>
                setDraft({
                  ...draft,
                  samples: Math.min(MODEL_SET_SAMPLES_MAX, Math.max(1, Math.round(Number(event.target.value) || 1))),
                })
              }
            />
          </label>
          <label>
            Temperature{' '}
            <input
              type="number"
              className="input small"
              data-testid="set-temperature"
              min={0}
              max={2}
              step={0.1}
              value={draft.temperature}
              onChange={(event) =>
                setDraft({ ...draft, temperature: Math.min(2, Math.max(0, Number(event.target.value) || 0)) })
              }
            />
          </label>
        </div>
        {draft.models.length < 2 && <p>Pick two or more models.</p>}
        {plan && (
          <>
            <p data-testid="set-limits">{plan.limits.sentence}</p>
            {recall?.state === 'loading' ? (
              <p data-testid="set-context">Planning recall; the context hash follows.</p>
            ) : (
              <p data-testid="set-context" title={plan.requests.contextHash}>
                {plan.requests.summary}
              </p>
            )}
            <div className="figures">
              <div className="figure">
                <div className="label">Answers</div>
                <div className="value" data-testid="set-count">
                  {plan.estimate.count}
                </div>
              </div>
              <div className="figure">
                <div className="label">Input tokens</div>
                <div className="value">{formatTokens(plan.estimate.inputTokens, { exact: false })}</div>
              </div>
              <div className="figure">
                <div className="label">Input price</div>
                <div className="value" data-testid="set-price">
                  {formatPrice(plan.estimate.price, false)}
                </div>
              </div>
            </div>
            <ul className="set-prices" data-testid="set-prices">
              {plan.estimate.perModel.map((each) => (
                <li key={each.model}>
                  {label(each.model)}: {plural(each.requests, 'request')}, {formatPrice(each.price, false)}
                </li>
              ))}
            </ul>
          </>
        )}
        {refusal && (
          <p className="error" data-testid="set-refusal">
            {refusal}
          </p>
        )}
        <div className="actions">
          <button className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            className="button primary"
            data-testid="set-ask"
            disabled={!plan || refusal !== null || running}
            onClick={() => void ask()}
          >
            {running ? 'Asking…' : `Ask for ${plural(plan?.estimate.count ?? 0, 'answer')}`}
          </button>
        </div>
      </div>
    </div>
  );
}
