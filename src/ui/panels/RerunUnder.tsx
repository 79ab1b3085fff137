import { useMemo, useState } from 'react';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../../protocol/index.ts';
import { plural, rerunPlan, runComparison, runNames } from '../../core/index.ts';
import { useEscape, useWeft, useWeftStore } from '../kit/index.ts';
import { tokenCounterFor, useTokenizersVersion } from '../tokens/index.ts';
import { PlanFigures } from './PlanFigures.tsx';
import { RunComparisonTable } from './RunComparisonTable.tsx';

/**
 * Issue 31: "Re-run under…" in the top bar. The selected nodes (or, with none selected, the whole canvas) are
 * re-run under one model into new versions tagged with the run's name — planned first, as Replay is: the count,
 * input tokens and price at that model's price — and the canvas's runs are compared with the person's answers.
 */
export function RerunUnder() {
  const [open, setOpen] = useState(false);
  const running = useWeft((state) => state.replay?.running ?? false);
  const hasGraph = useWeft((state) => state.graph !== null);
  if (!hasGraph) return null;
  return (
    <>
      <button
        className="button small"
        data-testid="rerun-under"
        disabled={running}
        onClick={() => setOpen(true)}
        title="Re-run the selection (or the whole canvas) under another model, and compare the runs"
      >
        Re-run under…
      </button>
      {open && <RerunDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function RerunDialog({ onClose }: { onClose: () => void }) {
  const store = useWeftStore();
  const graph = useWeft((state) => state.graph);
  const selected = useWeft((state) => state.selectedNodeIds);
  const models = useWeft((state) => state.models);
  const tokenizers = useTokenizersVersion();
  const defaultModelId = useWeft((state) => state.defaultModelId);
  // Another model than the canvas's default (and than the offline receipt), when there is one.
  const [model, setModel] = useState(
    () =>
      (
        models.find((each) => each.id !== defaultModelId && each.id !== OFFLINE_RECEIPT_MODEL_ID) ??
        models.find((each) => each.id !== defaultModelId) ??
        models[0]
      )?.id ?? '',
  );
  const [name, setName] = useState('');
  const runs = useMemo(() => (graph ? runNames(graph) : []), [graph]);
  const [shownRun, setShownRun] = useState<string | null>(() => runs.at(-1) ?? null);
  useEscape(true, onClose);
  const selection = useMemo(
    () => new Set(selected.length > 0 ? selected : graph ? [...graph.nodes.keys()] : []),
    [graph, selected],
  );
  const runName = name.trim() || `${model} run ${runs.length + 1}`;
  const plan = useMemo(() => {
    void tokenizers;
    if (!graph || !model) return null;
    const counter = tokenCounterFor(model);
    const pricePerMTokIn = models.find((each) => each.id === model)?.pricePerMTokIn ?? null;
    return {
      ...rerunPlan(graph, selection, { model, runName, estimateTokens: counter.count, pricePerMTokIn }),
      exact: counter.exact,
    };
  }, [graph, selection, model, models, runName, tokenizers]);
  const comparison = useMemo(
    () => (graph && shownRun && runs.includes(shownRun) ? runComparison(graph, shownRun) : null),
    [graph, shownRun, runs],
  );
  const start = async () => {
    onClose();
    const result = await store.getState().rerunUnder(selection, model, runName);
    if (result)
      store
        .getState()
        .toast(
          'info',
          'rerun-done',
          `“${result.runName}”: ${plural(result.completed, 'answer')} kept${result.failed + result.skipped > 0 ? `, ${result.failed + result.skipped} not run` : ''}. Re-run under… compares it.`,
        );
  };
  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="dialog"
        role="dialog"
        aria-label="Re-run under another model"
        data-testid="rerun-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Re-run under another model</h2>
        <p>
          Every question of {selected.length > 0 ? 'the selection' : 'the canvas'} is asked again under one model,
          upstream first, each from the run’s own answers above it. The answers are new versions named after the run;
          your selected answers stay what flows downstream.
        </p>
        <div className="button-row">
          <label>
            Model{' '}
            <select
              className="input"
              data-testid="rerun-model"
              value={model}
              onChange={(event) => setModel(event.target.value)}
            >
              {models.map((each) => (
                <option key={each.id} value={each.id}>
                  {each.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Run name{' '}
            <input
              className="input"
              data-testid="rerun-name"
              placeholder={runName}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </label>
        </div>
        {plan && <PlanFigures plan={plan} ids={{ count: 'rerun-count', price: 'rerun-price' }} />}
        {plan && plan.resumed > 0 && plan.refusal === null && (
          <p data-testid="rerun-resumed">
            Continues “{plan.runName}”: {plural(plan.resumed, 'question')} it already answered{' '}
            {plan.resumed === 1 ? 'is' : 'are'} not asked again, and the rest read those answers.
          </p>
        )}
        {plan?.refusal && (
          <p className="error" data-testid="rerun-refusal">
            {plan.refusal}
          </p>
        )}
        {runs.length > 0 && (
          <section>
            <h3>Run comparison</h3>
            <select
              className="input"
              data-testid="run-comparison-run"
              value={shownRun ?? ''}
              onChange={(event) => setShownRun(event.target.value)}
            >
              {runs.map((each) => (
                <option key={each} value={each}>
                  {each}
                </option>
              ))}
            </select>
            {comparison && (
              <RunComparisonTable
                comparison={comparison}
                onFocus={(nodeId) => {
                  store.getState().focusNode(nodeId);
                  onClose();
                }}
              />
            )}
          </section>
        )}
        <div className="actions">
          <button className="button" onClick={onClose}>
            Close
          </button>
          <button
            className="button primary"
            data-testid="rerun-confirm"
            disabled={!plan || plan.refusal !== null}
            onClick={() => void start()}
          >
            Re-run {plural(plan?.count ?? 0, 'answer')}
          </button>
        </div>
      </div>
    </div>
  );
}
