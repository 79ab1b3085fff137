import {
  agentMaterialFiles,
  agentMaterialsFolder,
  buildAgentPrompt,
  compile,
  currentAnswer,
  type AgentMaterialFile,
  type AgentPrompt,
  type Graph,
} from '../../core/index.ts';
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
  /** Copied into the working directory before the turn; only a new session (with the block) gets them. */
  materials: AgentMaterialFile[];
}

/**
 * What an agent-lane node will hand its runtime: the preview and the run call this. Asking again on a node whose
 * answer has a session of the same runtime continues it (the question only); a node whose only input is such a node
 * forks that session (the question only: the fork holds the parent's turns); otherwise a new session gets the
 * compiled context as one block.
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
      materials: [],
    };
  }
  // A fork already holds the parent's turns, so it gets the new ask only; that is safe only when the parent is
  // the node's whole context (one solid wire, nothing left out). Otherwise a new session gets the compiled block.
  const incoming = [...graph.wires.values()].filter((wire) => wire.to === nodeId);
  const wire = incoming.length === 1 ? incoming[0]! : null;
  const parent = wire?.kind === 'solid' && node.excludedParts.length === 0 ? graph.nodes.get(wire.from) : undefined;
  const agent = parent?.kind === 'question' ? currentAnswer(parent)?.agent : undefined;
  if (agent && agent.runtime === picked.runtime && sessionRef(agent))
    return {
      ...picked,
      prompt: buildAgentPrompt(compiled, { continued: true }),
      session: { fork: sessionRef(agent)! },
      materials: [],
    };
  // The files' folder is named in the block, so it is known only once the canvas has its working directory.
  const cwd = graph.canvas.workingDirectory;
  const files = cwd ? agentMaterialFiles(graph, compiled) : [];
  const materials = cwd ? { folder: agentMaterialsFolder(cwd, nodeId), files } : undefined;
  return {
    ...picked,
    prompt: buildAgentPrompt(compiled, { continued: false, materials }),
    session: undefined,
    materials: files,
  };
}
