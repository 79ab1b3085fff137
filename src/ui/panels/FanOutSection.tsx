import { useState } from 'react';
import { FAN_OUT_LIMIT, plural } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { shortModel, type SubQuestionProposal } from '../store/index.ts';

/** C33: fan one question out into several. A model proposes (or the rule fallback); the person edits; then nodes are made. */
export function FanOutSection({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const [proposal, setProposal] = useState<SubQuestionProposal | null>(null);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const lines = draft.split('\n').filter((line) => line.trim() !== '');
  const propose = async () => {
    setBusy(true);
    try {
      const proposed = await store.getState().proposeSubQuestions(node.id);
      if (proposed) {
        setProposal(proposed);
        setDraft(proposed.questions.join('\n'));
      }
    } finally {
      setBusy(false);
    }
  };
  if (!proposal)
    return (
      <div className="button-row" style={{ marginTop: 8 }}>
        <button
          className="button small"
          data-testid="fan-out"
          disabled={busy || node.archived || !node.question.trim()}
          onClick={() => void propose()}
        >
          {busy ? 'Proposing…' : 'Fan out into sub-questions…'}
        </button>
      </div>
    );
  return (
    <div className="section" data-testid="fan-out-editor">
      <div className="section-title">
        Sub-questions
        <span className="badge model">
          {proposal.path === 'model' ? `proposed by ${shortModel(proposal.model ?? '')}` : 'proposed by rule'}
        </span>
      </div>
      {proposal.path === 'rule' && (
        <div className="hint">
          The offline model cannot propose; these come from the question’s own parts. Edit freely.
        </div>
      )}
      <textarea
        className="textarea"
        data-testid="fan-out-list"
        value={draft}
        rows={Math.max(4, lines.length + 1)}
        onChange={(event) => setDraft(event.target.value)}
      />
      <div className="hint">
        One sub-question a line (at most {FAN_OUT_LIMIT}). Each becomes a node wired from this one.
      </div>
      <div className="button-row">
        <button
          className="button primary small"
          data-testid="fan-out-make"
          disabled={lines.length === 0 || lines.length > FAN_OUT_LIMIT}
          onClick={() => {
            if (store.getState().fanOut(node.id, lines, proposal.path, proposal.questions).length > 0)
              setProposal(null);
          }}
        >
          Make {plural(lines.length, 'node')}
        </button>
        <button className="button small ghost" onClick={() => setProposal(null)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
