import { useState } from 'react';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { agentApi, describeError } from '../api/index.ts';

/**
 * C24: the folders this node's agent turns may reach besides the working directory. In the sandbox nothing else of
 * the home exists; a folder is added only once the server has checked it as it checks a working directory, and the
 * server reads the list from the saved node at each turn.
 */
export function AgentGrants({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const grants = node.agentGrants ?? [];
  const [draft, setDraft] = useState('');
  const [refusal, setRefusal] = useState<{ code: string; message: string } | null>(null);
  const [checking, setChecking] = useState(false);
  const put = (next: string[]) =>
    store.getState().apply({ type: 'edit-node', nodeId: node.id, patch: { agentGrants: next } });
  const grant = async () => {
    const typed = draft.trim();
    if (typed === '') return;
    setRefusal(null);
    setChecking(true);
    try {
      const checked = await agentApi.checkFolder(typed);
      if (!grants.includes(checked)) put([...grants, checked]);
      setDraft('');
    } catch (error) {
      setRefusal(describeError(error));
    } finally {
      setChecking(false);
    }
  };
  return (
    <div className="agent-grants" data-testid="agent-grants">
      <div className="meta">
        {grants.length === 0
          ? 'This node grants no folder besides the working directory.'
          : 'Also reachable by this node’s turns (read and write):'}
      </div>
      {grants.map((folder) => (
        <div className="model-row" key={folder} data-testid="agent-grant">
          <code>{folder}</code>{' '}
          <button
            className="button small"
            data-testid="agent-grant-remove"
            onClick={() => put(grants.filter((each) => each !== folder))}
          >
            Remove
          </button>
        </div>
      ))}
      <div className="model-row">
        <input
          className="input"
          data-testid="agent-grant-input"
          value={draft}
          placeholder="/absolute/path/to/grant"
          aria-invalid={refusal !== null}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void grant();
          }}
        />
        <button className="button small" data-testid="agent-grant-add" disabled={checking} onClick={() => void grant()}>
          Grant folder
        </button>
      </div>
      {refusal && (
        <div
          className="meta agent-cwd-error"
          role="alert"
          data-testid="agent-grant-error"
          data-code={refusal.code}
          title={refusal.code}
        >
          {refusal.message}
        </div>
      )}
    </div>
  );
}
