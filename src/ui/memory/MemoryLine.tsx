import { useState } from 'react';
import type { MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import { lineHistory, lineKnownAs, lineValidity } from '../../core/memory/index.ts';
import { KnownAsBadge } from './KnownAsBadge.tsx';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { openOrigin } from './open-origin.ts';
import { formatWhen } from '../../core/index.ts';

const EVIDENCE_LABEL: Record<ProfileLine['evidence'], string> = {
  stated: 'stated in your words',
  inferred: 'inferred from your words',
  manual: 'typed by you',
  folded: 'imported',
  rewritten: 'reworded while another fact was written',
};

function time(at: number): string {
  return formatWhen(at);
}

/** #29.4: when an earlier version held — from the turn that stated it to the statement that superseded it. */
function heldText(profile: MemoryProfile, entry: ProfileLine): string {
  const { from, to } = lineValidity(profile, entry);
  if (to !== null) return `, valid ${time(from)} – ${time(to)})`;
  return entry.ended?.reason === 'deleted' ? `, deleted ${time(entry.ended.at)})` : ')';
}

/** The person's words with the evidence span marked (the question, when its node is on the open canvas). */
function Evidence({ line }: { line: ProfileLine }) {
  const graph = useWeft((state) => state.graph);
  if (!line.span) return null;
  const node =
    line.origin.nodeId && graph?.canvas.id === line.origin.canvasId ? graph.nodes.get(line.origin.nodeId) : null;
  const words = node?.kind === 'question' ? node.question : null;
  const at = words ? words.indexOf(line.span) : -1;
  return (
    <blockquote className="memory-evidence" data-testid="memory-evidence">
      {at >= 0 && words ? (
        <>
          {words.slice(0, at)}
          <mark>{line.span}</mark>
          {words.slice(at + line.span.length)}
        </>
      ) : (
        <mark>{line.span}</mark>
      )}
    </blockquote>
  );
}

/**
 * What a line rests on, on the line itself: the person's words and one click to the turn they were said in; a
 * line typed or imported by the person says so. The evidence code stays in the tooltip and `data-evidence`.
 */
function LineEvidence({ line }: { line: ProfileLine }) {
  const store = useWeftStore();
  const { canvasId, nodeId } = line.origin;
  const said = line.evidence === 'inferred' ? 'Read between the lines of' : 'You said';
  // Without a turn to open, a stated or inferred line's evidence says no more than its known-as words beside it.
  if ((!canvasId || !nodeId) && (line.evidence === 'stated' || line.evidence === 'inferred')) return null;
  if (!canvasId || !nodeId)
    return (
      <span className={`memory-badge evidence-${line.evidence}`} title={line.evidence}>
        {EVIDENCE_LABEL[line.evidence]}
      </span>
    );
  return (
    <button
      className={`link memory-line-evidence evidence-${line.evidence}`}
      data-testid="memory-line-evidence"
      title={`${EVIDENCE_LABEL[line.evidence]} (${line.evidence}): open the turn`}
      onClick={() => void openOrigin(store, canvasId, nodeId)}
    >
      {line.span ? `${said} “${line.span}”` : EVIDENCE_LABEL[line.evidence]} →
    </button>
  );
}

/** One current line: its text, and on expand its provenance, history, and edit / delete. */
export function MemoryLine({
  line,
  profile,
  onEdit,
  onDelete,
}: {
  line: ProfileLine;
  profile: MemoryProfile;
  onEdit: (text: string) => Promise<boolean>;
  onDelete: () => void;
}) {
  const store = useWeftStore();
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const history = lineHistory(profile, line.id).filter((entry) => entry.id !== line.id);
  const { canvasId, nodeId, commitHash } = line.origin;
  const canvasName = useWeft((state) => state.canvases.find((canvas) => canvas.id === canvasId)?.name ?? canvasId);
  return (
    <li
      className="memory-line"
      data-testid="memory-line"
      data-evidence={line.evidence}
      data-known-as={lineKnownAs(line)}
    >
      <div className="memory-line-head">
        {editing === null ? (
          <button className="memory-line-text" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
            {line.text}
          </button>
        ) : (
          <form
            className="memory-edit"
            onSubmit={(event) => {
              event.preventDefault();
              void onEdit(editing).then((ok) => ok && setEditing(null));
            }}
          >
            <input
              className="input"
              data-testid="memory-edit-input"
              value={editing}
              onChange={(event) => setEditing(event.target.value)}
              autoFocus
            />
            <button className="button small" type="submit">
              Save
            </button>
            <button className="button small ghost" type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </form>
        )}
        <button className="button small ghost" data-testid="memory-edit" onClick={() => setEditing(line.text)}>
          Edit
        </button>
        <button className="button small ghost danger" data-testid="memory-delete" onClick={onDelete}>
          Delete
        </button>
      </div>
      <div className="memory-line-source">
        <KnownAsBadge knownAs={lineKnownAs(line)} />
        <LineEvidence line={line} />
      </div>
      {expanded && (
        <div className="memory-provenance" data-testid="memory-provenance">
          <div>
            {EVIDENCE_LABEL[line.evidence]} · recorded {time(line.createdAt)} ·{' '}
            <span data-testid="memory-valid-since">valid since {time(lineValidity(profile, line).from)}</span>
          </div>
          <Evidence line={line} />
          {canvasId && nodeId && (
            <div>
              From{' '}
              <button
                className="link"
                data-testid="memory-open-node"
                onClick={() => void openOrigin(store, canvasId, nodeId)}
              >
                the exchange on “{canvasName}”
              </button>
              {commitHash && (
                <>
                  {' '}
                  · commit <code data-testid="memory-commit">{commitHash.slice(0, 16)}…</code>
                </>
              )}
            </div>
          )}
          {history.length > 0 && (
            <div className="memory-history">
              <div className="section-title">Earlier</div>
              <ul>
                {history.map((entry) => (
                  <li key={entry.id} data-testid="memory-history-line">
                    <s>{entry.text}</s> <KnownAsBadge knownAs={lineKnownAs(entry)} testId="memory-history-known-as" />{' '}
                    <span className="hint" data-testid="memory-history-interval">
                      ({EVIDENCE_LABEL[entry.evidence]}, recorded {time(entry.createdAt)}
                      {heldText(profile, entry)}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </li>
  );
}
