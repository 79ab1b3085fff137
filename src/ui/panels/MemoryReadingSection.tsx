import type { MemoryReading, QuestionNode } from '../../../protocol/index.ts';
import { memoryReadingOf } from '../../core/index.ts';
import { useWeft } from '../kit/index.ts';
import { asOfDay, asOfFromDay, memoryReadingLine } from './memory-reading-line.ts';

/**
 * #29: how this node's asks read memory — whether inferred items (a model's summaries: the judge's inferred profile
 * lines, dossiers) come in, marked, and the date memory is read "as of". Saved on the node like recall's setting,
 * so the preview, the run and `weft compile` read the same.
 */
export function MemoryReadingSection({ node }: { node: QuestionNode }) {
  const apply = useWeft((state) => state.apply);
  const reading = memoryReadingOf(node);
  const save = (patch: Partial<MemoryReading>) =>
    apply({ type: 'edit-node', nodeId: node.id, patch: { memoryReading: { ...reading, ...patch } } });
  return (
    <div className="section" data-testid="memory-reading-section">
      <div className="section-title">Memory reading</div>
      <label className="switch" style={{ display: 'flex' }}>
        <input
          type="checkbox"
          data-testid="memory-inferred"
          checked={reading.includeInferred}
          onChange={(event) => save({ includeInferred: event.target.checked })}
        />
        Include inferred items (a model’s summaries and judgments), marked as inferred
      </label>
      <label className="model-row">
        <span>As of</span>
        <input
          type="date"
          className="input"
          data-testid="memory-as-of"
          value={asOfDay(reading.asOf)}
          onChange={(event) => save({ asOf: asOfFromDay(event.target.value) })}
        />
        {reading.asOf !== null && (
          <button className="button small" data-testid="memory-as-of-clear" onClick={() => save({ asOf: null })}>
            Now
          </button>
        )}
      </label>
      <div className="hint" data-testid="memory-reading-line">
        {memoryReadingLine(reading)}
      </div>
    </div>
  );
}
