import { useEffect } from 'react';
import { agentApi } from './agent-api.ts';
import { agentStore } from './agent-state.ts';
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

/** The "Agents" group of the model picker: each installed runtime with its default, then its own models. */
export function AgentModelOptions() {
  const installed = useAgentRuntimes().filter((runtime) => runtime.installed);
  if (installed.length === 0) return null;
  return (
    <optgroup label="Agents">
      {installed.flatMap((runtime) => [
        <option key={runtime.runtime} value={`agent:${runtime.runtime}`}>
          {LABEL[runtime.runtime]} · its default model
        </option>,
        ...runtime.models.map((model) => (
          <option key={`${runtime.runtime}/${model.id}`} value={`agent:${runtime.runtime}/${model.id}`}>
            {LABEL[runtime.runtime]} · {model.label}
          </option>
        )),
      ])}
    </optgroup>
  );
}

/** Under the picker: how to install a runtime that is missing. */
export function AgentInstallHints() {
  const missing = useAgentRuntimes().filter((runtime) => !runtime.installed);
  if (missing.length === 0) return null;
  return (
    <div className="hint" data-testid="agent-install-hints">
      {missing.map((runtime) => (
        <div key={runtime.runtime}>{runtime.installHint}</div>
      ))}
    </div>
  );
}
