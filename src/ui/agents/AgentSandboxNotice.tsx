import { useEffect, useState } from 'react';
import { agentApi, describeError, type AgentSandboxState } from '../api/index.ts';

/**
 * What confines this canvas's agent turns: bubblewrap, or nothing — then the person agrees once for the canvas
 * (the server records it and refuses unconfined turns without it).
 */
export function AgentSandboxNotice({ canvasId }: { canvasId: string }) {
  const [state, setState] = useState<AgentSandboxState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    agentApi.sandbox(canvasId).then(
      (found) => current && setState(found),
      (error: unknown) => current && setProblem(describeError(error).message),
    );
    return () => {
      current = false;
    };
  }, [canvasId]);
  const agree = () =>
    agentApi.consentUnconfined(canvasId).then(setState, (error: unknown) => setProblem(describeError(error).message));
  if (problem)
    return (
      <div className="meta" role="alert">
        {problem}
      </div>
    );
  if (!state) return null;
  if (state.confined)
    return (
      <div className="meta" data-testid="agent-sandbox">
        Sandboxed: the agent sees its working directory (writable), the node&apos;s materials (read-only) and its own
        install; the rest of your home is not there. Its shell commands reach the network only with the switch on.
      </div>
    );
  return (
    <div className="meta agent-unconfined" role="alert" data-testid="agent-unconfined">
      Runs unconfined: {state.reason}. The agent can read anything you can, and its commands can reach any network.{' '}
      {state.consented ? (
        'You agreed for this canvas.'
      ) : (
        <button className="button small" data-testid="agent-unconfined-consent" onClick={() => void agree()}>
          Run agents unconfined on this canvas
        </button>
      )}
    </div>
  );
}
