import { useCallback, useEffect, useMemo, useState } from 'react';
import { useWeft, useWeftStore, useEscape } from '../kit/index.ts';
import { replayEstimate, plural } from '../../core/index.ts';
import { nodePrices, nodeTokenCounters } from '../store/index.ts';
import { tokenCounterFor, useTokenizersVersion } from '../tokens/index.ts';
import { progressWords } from './progress-words.ts';
import { PlanFigures } from './PlanFigures.tsx';
import { ReplayList } from './ReplayList.tsx';

export function ReplayChip() {
  const count = useWeft((state) => state.shown.size);
  const replay = useWeft((state) => state.replay);
  const models = useWeft((state) => state.models);
  const store = useWeftStore();
  if (replay?.running) {
    const label = (id: string) => models.find((model) => model.id === id)?.label ?? id;
    return (
      <span className="replay-chip" data-testid="replay-progress">
        {progressWords(replay, label)}
        <button className="button small" data-testid="replay-stop" onClick={() => store.getState().stopReplay()}>
          Stop
        </button>
      </span>
    );
  }
  // Nothing stale, nothing to replay: the chip would only say "0 stale".
  if (count === 0) return null;
  return (
    <button
      className="replay-chip"
      data-testid="replay-chip"
      onClick={() => store.getState().openReplayDialog(true)}
      title="Regenerate the stale answers in dependency order"
    >
      <span className="count" data-testid="stale-count">
        {count}
      </span>{' '}
      stale · Replay
    </button>
  );
}

export function ReplayDialog() {
  const open = useWeft((state) => state.replayDialogOpen);
  const graph = useWeft((state) => state.graph);
  const shown = useWeft((state) => state.shown);
  const models = useWeft((state) => state.models);
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const store = useWeftStore();
  const tokenizers = useTokenizersVersion();
  // The nodes the person unticked; a fresh dialog runs everything again.
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (open) setSkipped(new Set());
  }, [open]);
  const estimate = useMemo(() => {
    if (!open || !graph) return null;
    // Exact only when every request Replay would send is counted by its model's own tokenizer.
    let exact = true;
    const estimateTokens = nodeTokenCounters({ graph, models, defaultModelId }, (modelId) => {
      const counter = tokenCounterFor(modelId);
      exact &&= counter.exact;
      return counter.count;
    });
    const options = { pricePerMTokIn: nodePrices({ graph, models, defaultModelId }), estimateTokens };
    const planned = replayEstimate(graph, shown, options).perStep;
    const result = replayEstimate(graph, shown, { ...options, skipped });
    return { ...result, planned, running: new Set(result.steps.map((step) => step.nodeId)), exact, tokenizers };
  }, [open, graph, shown, models, defaultModelId, tokenizers, skipped]);
  const toggle = useCallback(
    (nodeId: string) =>
      setSkipped((current) => {
        const next = new Set(current);
        if (!next.delete(nodeId)) next.add(nodeId);
        return next;
      }),
    [],
  );
  const close = useCallback(() => store.getState().openReplayDialog(false), [store]);
  useEscape(open, close);
  if (!open || !estimate) return null;
  return (
    <div className="overlay" onClick={close}>
      <div
        className="dialog"
        role="dialog"
        aria-label="Replay stale answers"
        data-testid="replay-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Replay stale answers</h2>
        <p>
          Each stale answer is regenerated in dependency order, upstream first, and auto-rerun nodes below them run once
          in the same pass. Every regeneration adds a new version; the old ones are kept. Archived nodes never run.
        </p>
        <PlanFigures plan={estimate} ids={{ count: 'replay-count', tokens: 'replay-tokens', price: 'replay-price' }} />
        <ReplayList
          planned={estimate.planned}
          running={estimate.running}
          skipped={skipped}
          exact={estimate.exact}
          onToggle={toggle}
          byHand={estimate.byHand}
        />
        <div className="actions">
          <button className="button" onClick={close}>
            Cancel
          </button>
          <button
            className="button primary"
            data-testid="replay-confirm"
            disabled={estimate.count === 0}
            onClick={() => void store.getState().replayStale(skipped)}
          >
            Replay {plural(estimate.count, 'answer')}
          </button>
        </div>
      </div>
    </div>
  );
}
