import type { ReplayStepEstimate } from '../../core/index.ts';
import { useWeft } from '../kit/index.ts';
import { nodeTitle } from '../store/index.ts';
import { formatTokens } from '../tokens/index.ts';

export function formatPrice(price: number | null, exact: boolean): string {
  if (price === null) return 'unknown';
  return `${exact ? '' : '≈'}$${price.toFixed(price < 0.01 ? 4 : 2)}`;
}

/**
 * The Replay wave in run order, each node with its tokens and price and a tick. `planned` is the whole wave;
 * `running` the ids that will run with the current ticks (an auto-rerun below only unticked nodes drops out).
 */
export function ReplayList({
  planned,
  running,
  skipped,
  exact,
  onToggle,
  byHand = [],
}: {
  planned: ReplayStepEstimate[];
  /** Stale nodes Replay never runs (the agent lane), listed unticked with the reason. */
  byHand?: { nodeId: string; reason: string }[];
  running: ReadonlySet<string>;
  skipped: ReadonlySet<string>;
  exact: boolean;
  onToggle: (nodeId: string) => void;
}) {
  const nodes = useWeft((state) => state.graph?.nodes);
  let order = 0;
  return (
    <ul className="replay-list" data-testid="replay-list">
      {planned.map((step) => {
        const runs = running.has(step.nodeId);
        // Unticked by the person, or left out because nothing it builds on runs.
        const dropped = !runs && !skipped.has(step.nodeId);
        if (runs) order += 1;
        return (
          <li key={step.nodeId} data-testid="replay-item" data-node-id={step.nodeId} data-runs={runs}>
            <input
              type="checkbox"
              aria-label={`Run ${nodeTitle(nodes?.get(step.nodeId))}`}
              data-testid="replay-tick"
              checked={runs}
              disabled={dropped}
              title={dropped ? 'Runs only when a node above it runs' : undefined}
              onChange={() => onToggle(step.nodeId)}
            />
            <span className="order">{runs ? `${order}.` : '–'}</span>
            <span className="title" title={nodeTitle(nodes?.get(step.nodeId))}>
              {nodeTitle(nodes?.get(step.nodeId))}
              {step.lane === 'auto-rerun' && <span className="badge auto">auto-rerun</span>}
            </span>
            <span className="figure-cell">{formatTokens(step.inputTokens, { exact })} tok</span>
            <span className="figure-cell" data-testid="replay-item-price">
              {formatPrice(step.price, exact)}
            </span>
          </li>
        );
      })}
      {byHand.map(({ nodeId, reason }) => (
        <li key={nodeId} data-testid="replay-item" data-node-id={nodeId} data-runs={false} data-by-hand="true">
          <input
            type="checkbox"
            aria-label={`Run ${nodeTitle(nodes?.get(nodeId))}`}
            data-testid="replay-tick"
            checked={false}
            disabled
            title={reason}
          />
          <span className="order">–</span>
          <span className="title" title={reason}>
            {nodeTitle(nodes?.get(nodeId))}
            <span className="badge" data-testid="replay-by-hand">
              asked by hand (agent lane)
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
