import { useWeft, useWeftStore } from '../kit/index.ts';
import { nodeTitle } from '../store/index.ts';
import { runCommand } from '../commands/index.ts';
import { QuestionPanel } from './QuestionPanel.tsx';
import { TextNodePanel } from './TextNodePanel.tsx';
import { WhyFileLinks } from '../atlas/index.ts';
import { renderMentions } from '../../core/index.ts';
import type { CanvasNode } from '../../../protocol/index.ts';

const KIND_LABEL = {
  question: 'Question',
  note: 'Note',
  material: 'Material',
  frame: 'Frame',
  mirror: 'Mirrored turn',
} as const;

/** The whole title, for the hover of the header's one clamped line. */
function wholeTitle(node: CanvasNode): string {
  const whole = node.kind === 'question' ? renderMentions(node.question).trim() : '';
  return whole || nodeTitle(node);
}

export function NodePanel() {
  const store = useWeftStore();
  const nodeId = useWeft((state) => state.focusedNodeId);
  const node = useWeft((state) => (state.focusedNodeId ? state.graph?.nodes.get(state.focusedNodeId) : undefined));
  if (!nodeId || !node) return null;
  const state = store.getState();
  const withTarget = (command: string) => {
    state.setSelection([node.id]);
    void runCommand(store, command);
  };
  return (
    <aside className="panel" data-testid="node-panel" data-node-id={node.id}>
      <div className="panel-header">
        <span className="badge">{KIND_LABEL[node.kind]}</span>
        <span className="panel-title" data-testid="panel-title" title={wholeTitle(node)}>
          {nodeTitle(node)}
        </span>
        <button className="button small" data-testid="archive-toggle" onClick={() => withTarget('archive')}>
          {node.archived ? 'Unarchive' : 'Archive'}
        </button>
        <button className="button small danger" data-testid="delete-node" onClick={() => withTarget('delete')}>
          Delete
        </button>
        <button className="button small ghost" aria-label="Close panel" onClick={() => state.focusNode(null)}>
          ✕
        </button>
      </div>
      <div className="panel-body">
        {node.archived && (
          <div
            className="banner"
            style={{
              marginBottom: 12,
              background: 'var(--surface-muted)',
              color: 'var(--text-muted)',
              borderColor: 'var(--border)',
            }}
          >
            Archived: left out of every context, the stale set, Replay and reruns. Unarchive to restore it.
          </div>
        )}
        {node.kind === 'question' ? <QuestionPanel node={node} /> : <TextNodePanel node={node} />}
        <WhyFileLinks node={node} />
      </div>
    </aside>
  );
}
