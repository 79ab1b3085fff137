import { useEffect } from 'react';
import { agentApi } from '../api/index.ts';
import { agentStore } from '../store/index.ts';
import { useAgent } from './use-agent.ts';

const LABEL = { pi: 'Pi (agent)', codex: 'Codex (agent)' } as const;

/** Loads the installed runtimes once per page. */
export function useAgentRuntimes() {
  const runtimes = useAgent((state) => state.runtimes);
  useEffect(() => {
    if (runtimes !== null) return;
    agentApi.runtimes().then(
      (listed) => agentStore.setState({ runtimes: listed }),
      () => agentStore.setState({ runtimes: [] }),
    );
  }, [runtimes]);
  return runtimes ?? [];
}

/**
 * The "Agents" group of the model picker: each installed runtime with its default, then its own models; a runtime
 * that is missing is a disabled entry that says how to install it.
 */
export function AgentModelOptions() {
  const runtimes = useAgentRuntimes();
  if (runtimes.length === 0) return null;
  return (
    <optgroup label="Agents">
      {runtimes.flatMap((runtime) =>
        runtime.installed
          ? [
              <option
                key={runtime.runtime}
                value={`agent:${runtime.runtime}`}
                title={runtime.signInHint ?? undefined}
                data-testid={`agent-option-${runtime.runtime}`}
              >
                {LABEL[runtime.runtime]} · its default model
              </option>,
              ...runtime.models.map((model) => (
                <option key={`${runtime.runtime}/${model.id}`} value={`agent:${runtime.runtime}/${model.id}`}>
                  {LABEL[runtime.runtime]} · {model.label}
                </option>
              )),
            ]
          : [
              <option key={runtime.runtime} disabled value="" data-testid="agent-install-hint">
                {LABEL[runtime.runtime]} not installed — {runtime.installHint}
              </option>,
            ],
      )}
    </optgroup>
  );
}
