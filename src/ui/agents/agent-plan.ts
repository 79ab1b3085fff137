import { buildAgentPrompt, compile, currentAnswer, type AgentPrompt, type Graph } from '../../core/index.ts';
import type { AgentTurnRequest } from '../../../protocol/index.ts';

export type AgentRuntimeName = 'pi' | 'codex';

/** `agent:pi`, `agent:codex`, or with the runtime's own model after a slash: `agent:pi/scripted/coder`. */
export function agentModel(model: string | null): { runtime: AgentRuntimeName; model: string | undefined } | null {
  const match = /^agent:(pi|codex)(?:\/(.+))?$/.exec(model ?? '');
  if (!match) return null;
  return { runtime: match[1] as AgentRuntimeName, model: match[2] };
}

export interface AgentPlan {
  runtime: AgentRuntimeName;
  model: string | undefined;
  prompt: AgentPrompt;
  session: AgentTurnRequest['session'];
}

/**
 * What an agent-lane node will hand its runtime: the preview and the run call this. Asking again on a node whose
 * answer has a session of the same runtime continues it (the question only); a node wired from such a node forks
 * that session; otherwise a new session gets the compiled context as one block.
 */
export function agentPlan(graph: Graph, shown: ReadonlySet<string>, nodeId: string): AgentPlan | null {
  const node = graph.nodes.get(nodeId);
  if (!node || node.kind !== 'question') return null;
  const picked = agentModel(node.model);
  if (!picked) return null;
  const own = currentAnswer(node)?.agent;
  const sessionRef = (agent: NonNullable<typeof own>) => (agent.runtime === 'pi' ? agent.sessionFile : agent.sessionId);
  const compiled = compile(graph, nodeId, { stale: shown });
  if (own && own.runtime === picked.runtime && sessionRef(own)) {
    return {
      ...picked,
      prompt: buildAgentPrompt(compiled, { continued: true }),
      session: { continue: sessionRef(own)! },
    };
  }
  for (const wire of graph.wires.values()) {
    if (wire.to !== nodeId || wire.kind !== 'solid') continue;
    const parent = graph.nodes.get(wire.from);
    const agent = parent?.kind === 'question' ? currentAnswer(parent)?.agent : undefined;
    if (agent && agent.runtime === picked.runtime && sessionRef(agent))
      return {
        ...picked,
        prompt: buildAgentPrompt(compiled, { continued: false }),
        session: { fork: sessionRef(agent)! },
      };
  }
  return { ...picked, prompt: buildAgentPrompt(compiled, { continued: false }), session: undefined };
}
