import { useMemo, useState } from 'react';
import { chainVerdict, describeChainVerdict, eventsToCsv, formatWhen, type Graph } from '../../core/index.ts';
import type { ChainVerdict } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { nodeTitle } from '../store/index.ts';
import { downloadText, safeFileName } from './download.ts';

const PAGE = 500;

/** A node's title, a wire as "from → to", else the bare id (deleted objects keep only their id). */
function objectLabel(graph: Graph, objectId: string) {
  const node = graph.nodes.get(objectId);
  if (node) return nodeTitle(node);
  const wire = graph.wires.get(objectId);
  if (wire) return `${nodeTitle(graph.nodes.get(wire.from))} → ${nodeTitle(graph.nodes.get(wire.to))}`;
  return <span className="hint">{objectId}</span>;
}

/** C10: the append-only, hash-chained event log, metadata only. */
export function EventLogView() {
  const graph = useWeft((state) => state.graph);
  const [op, setOp] = useState('');
  const [object, setObject] = useState('');
  const store = useWeftStore();
  const [verdict, setVerdict] = useState<{ verdict: ChainVerdict; note: string } | null>(null);
  const events = graph?.events ?? [];
  const ops = useMemo(() => [...new Set(events.map((event) => event.op))].sort(), [events]);
  const filtered = useMemo(() => {
    const needle = object.trim().toLowerCase();
    return events
      .map((event, index) => ({ event, index }))
      .filter(
        ({ event }) =>
          (!op || event.op === op) &&
          (!needle ||
            event.objectId.toLowerCase().includes(needle) ||
            nodeTitle(graph?.nodes.get(event.objectId)).toLowerCase().includes(needle)),
      );
  }, [events, op, object, graph]);
  if (!graph) return null;

  /** Saves, then asks the record store: the durable log checked against the chain head kept beside it. */
  async function verify(canvasId: string) {
    try {
      await store.getState().flush();
      const result = await store.api.verifyCanvas(canvasId);
      // A record created under the id of a deleted one is new: its log is its own, and the page says so.
      const recreated = result.recreatedAfter;
      const note = recreated
        ? ` · a new record: one under this id (${recreated.eventCount} events) was deleted ${formatWhen(recreated.deletedAt)}`
        : '';
      setVerdict({ verdict: result.verdict, note });
    } catch (error) {
      // The server is out of reach: this page's copy can still be checked on its own (no head to compare with).
      const { message } = describeError(error);
      setVerdict({ verdict: chainVerdict(events, null), note: ` (this page's copy only: ${message})` });
    }
  }

  return (
    <div className="page" data-testid="event-log">
      <div className="page-inner">
        <h1>Event log</h1>
        <p className="subtitle">
          Every change and dispatch on “{graph.canvas.name}”, append-only and hash-chained. Metadata only: no question
          or answer text is stored here.
        </p>
        <div className="card-panel">
          <div className="toolbar-row">
            <select
              className="select"
              data-testid="event-filter-op"
              value={op}
              onChange={(event) => setOp(event.target.value)}
            >
              <option value="">All operations</option>
              {ops.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <input
              className="input"
              data-testid="event-filter-object"
              placeholder="Filter by object id or title"
              value={object}
              onChange={(event) => setObject(event.target.value)}
              style={{ width: 240 }}
            />
            <span className="hint">
              {filtered.length} of {events.length} events
            </span>
            <span style={{ flex: 1 }} />
            {verdict &&
              (verdict.verdict.status === 'intact' ? (
                <span
                  className="verify intact"
                  data-testid="verify-result"
                  data-status="intact"
                  title={describeChainVerdict(verdict.verdict) + verdict.note}
                >
                  ✓ Chain intact · {verdict.verdict.eventCount} events
                  {verdict.verdict.anchored ? ', matching the chain head on disk' : ''}
                  {verdict.note}
                </span>
              ) : (
                <span className="verify broken" data-testid="verify-result" data-status={verdict.verdict.status}>
                  ✕ {describeChainVerdict(verdict.verdict)}
                  {verdict.note}
                </span>
              ))}
            <button className="button" data-testid="verify" onClick={() => void verify(graph.canvas.id)}>
              Verify
            </button>
            <button
              className="button"
              data-testid="export-csv"
              onClick={() =>
                downloadText(`${safeFileName(graph.canvas.name)}-events.csv`, eventsToCsv(events), 'text/csv')
              }
            >
              Export CSV
            </button>
          </div>
          <table className="table">
            <thead>
              <tr>
                <th>#</th>
                <th>Time</th>
                <th>Operation</th>
                <th>Object</th>
                <th>Details</th>
                <th>Hash</th>
              </tr>
            </thead>
            <tbody>
              {filtered
                .slice(-PAGE)
                .reverse()
                .map(({ event, index }) => (
                  <tr key={event.id} data-testid="event-row" data-op={event.op} data-meta={JSON.stringify(event.meta)}>
                    <td>{index + 1}</td>
                    <td style={{ whiteSpace: 'nowrap' }}>{formatWhen(event.at)}</td>
                    <td>
                      <span className="badge">{event.op}</span>
                    </td>
                    <td>{objectLabel(graph, event.objectId)}</td>
                    <td className="mono">
                      {Object.entries(event.meta)
                        .map(
                          ([key, value]) =>
                            `${key}=${typeof value === 'string' && value.length > 20 ? value.slice(0, 16) + '…' : String(value)}`,
                        )
                        .join(' ')}
                    </td>
                    <td className="mono">{event.hash.slice(0, 12)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
          {filtered.length > PAGE && (
            <p className="hint">Showing the newest {PAGE}; filter or export CSV for the rest.</p>
          )}
        </div>
      </div>
    </div>
  );
}
