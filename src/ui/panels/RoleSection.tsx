import { useEffect, useMemo, useState } from 'react';
import { resolveRole } from '../../core/index.ts';
import type { QuestionNode, RoleSetting } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { nodeTitle } from '../store/index.ts';

const MODE_LABEL: Record<RoleSetting['mode'], string> = {
  inherit: 'Inherit from parents',
  set: 'Set for this node and what follows',
  reset: 'Reset here (no role from this node on)',
};

/** C29: the node's role — its mode, its text, the role in force and where it comes from, and the pick a conflict needs. */
export function RoleSection({ node }: { node: QuestionNode }) {
  const graph = useWeft((state) => state.graph);
  const apply = useWeft((state) => state.apply);
  const setting: RoleSetting = node.role ?? { mode: 'inherit', text: '' };
  const [draft, setDraft] = useState(setting.text);
  useEffect(() => setDraft(setting.text), [node.id, setting.text]);
  const resolved = useMemo(() => (graph ? resolveRole(graph, node.id) : null), [graph, node.id]);
  if (!graph || !resolved) return null;
  const save = (next: RoleSetting) => {
    if (next.mode === setting.mode && next.text === setting.text) return;
    apply({ type: 'edit-node', nodeId: node.id, patch: { role: next } });
  };
  return (
    <div className="section" data-testid="role-section">
      <div className="section-title">Role</div>
      <label className="model-row">
        <span>Mode</span>
        <select
          className="select"
          data-testid="role-mode"
          value={setting.mode}
          onChange={(event) => save({ mode: event.target.value as RoleSetting['mode'], text: draft })}
        >
          {(Object.keys(MODE_LABEL) as RoleSetting['mode'][]).map((mode) => (
            <option key={mode} value={mode}>
              {MODE_LABEL[mode]}
            </option>
          ))}
        </select>
      </label>
      {setting.mode === 'set' && (
        <textarea
          className="textarea"
          data-testid="role-text"
          value={draft}
          placeholder="e.g. You are a careful historian; cite dates."
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => save({ mode: 'set', text: draft })}
        />
      )}
      {resolved.kind === 'role' && (
        <div className="hint" data-testid="role-in-force">
          Sent first as the system message, from{' '}
          {resolved.role.sourceId === node.id ? 'this node' : `“${nodeTitle(graph.nodes.get(resolved.role.sourceId))}”`}
          : “{resolved.role.text.slice(0, 140)}
          {resolved.role.text.length > 140 ? '…' : ''}”
        </div>
      )}
      {resolved.kind === 'role' && node.rolePick && (
        // A settled conflict stays changeable: clearing the pick brings the parents' roles back to choose from.
        <button
          className="button small"
          data-testid="role-repick"
          onClick={() => apply({ type: 'edit-node', nodeId: node.id, patch: { rolePick: null } })}
        >
          Pick another parent’s role
        </button>
      )}
      {resolved.kind === 'none' && <div className="hint">No role: the request starts with its context.</div>}
      {resolved.kind === 'conflict' && (
        <div className="role-conflict" data-testid="role-conflict">
          <div className="hint">Its parents bring different roles. Pick the one this node is asked under:</div>
          {resolved.candidates.map((candidate) => (
            <label key={candidate.sourceId} className="switch">
              <input
                type="radio"
                name={`role-pick-${node.id}`}
                data-testid="role-pick"
                checked={node.rolePick === candidate.sourceId}
                onChange={() => apply({ type: 'edit-node', nodeId: node.id, patch: { rolePick: candidate.sourceId } })}
              />
              “{candidate.text.slice(0, 80)}” — from {nodeTitle(graph.nodes.get(candidate.sourceId))}
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
