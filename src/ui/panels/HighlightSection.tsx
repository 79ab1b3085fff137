import { spansOn } from '../../core/index.ts';
import type { HighlightMode, QuestionNode, Version } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';

const MODE_LABEL: Record<HighlightMode, string> = {
  full: 'Full text',
  tag: 'Full text, highlights tagged important',
  only: 'Highlights only',
};

/** C33: the current version's highlights and how this answer enters context downstream. */
export function HighlightSection({ node, version }: { node: QuestionNode; version: Version }) {
  const apply = useWeft((state) => state.apply);
  const mine = (node.highlights ?? []).filter((highlight) => highlight.versionId === version.id);
  const holding = spansOn(node, version).length;
  if (mine.length === 0 && !node.highlightMode) return null;
  return (
    <div className="section" data-testid="highlight-section">
      <div className="section-title">Highlights</div>
      <label className="model-row">
        <span>Downstream sees</span>
        <select
          className="select"
          data-testid="highlight-mode"
          value={node.highlightMode ?? 'full'}
          onChange={(event) =>
            apply({ type: 'edit-node', nodeId: node.id, patch: { highlightMode: event.target.value as HighlightMode } })
          }
        >
          {(Object.keys(MODE_LABEL) as HighlightMode[]).map((mode) => (
            <option key={mode} value={mode}>
              {MODE_LABEL[mode]}
            </option>
          ))}
        </select>
      </label>
      {holding === 0 && node.highlightMode && node.highlightMode !== 'full' && (
        <div className="hint">This version has no highlights, so downstream sees its full text.</div>
      )}
      <ul className="changed-list">
        {mine.map((highlight, index) => (
          <li key={`${highlight.start}-${index}`} data-testid="highlight-item">
            <mark>“{highlight.text.length > 90 ? `${highlight.text.slice(0, 87)}…` : highlight.text}”</mark>{' '}
            <button
              className="button small ghost"
              aria-label="Remove highlight"
              onClick={() =>
                apply({
                  type: 'edit-node',
                  nodeId: node.id,
                  patch: { highlights: (node.highlights ?? []).filter((item) => item !== highlight) },
                })
              }
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
