// A canvas saved the way the app saves one before an agent turn: the server decides the turn from it (issue 27.3).
import type { AgentVersion, CanvasDocument, GuardModeValue, Version } from '../../protocol/index.ts';
import { sampleCanvas } from './sample-canvas.ts';
import type { TestServer } from './test-server.ts';

export interface SavedAgentCanvas {
  workingDirectory: string;
  /** The question node's id; `question-1` (sampleCanvas's) unless given. */
  nodeId?: string;
  agentGuard?: GuardModeValue;
  agentNetwork?: boolean;
  agentGrants?: string[];
  /** Agent sessions the question's versions recorded (Pi: the session file; Codex: the thread id). */
  sessions?: { runtime: AgentVersion['runtime']; ref: string }[];
}

/** An answered agent version that recorded `ref` as its session. */
function agentVersion(index: number, runtime: AgentVersion['runtime'], ref: string): Version {
  return {
    id: `version-${index}`,
    text: 'Done.',
    question: 'What follows?',
    model: runtime === 'pi' ? 'pi:scripted/model' : 'codex:model',
    createdAt: 10 + index,
    requestHash: null,
    upstreamFingerprint: '0'.repeat(64),
    upstream: { base: null, parts: [], removed: [] },
    origin: 'generated',
    status: 'complete',
    branchOf: null,
    agent: {
      runtime,
      sessionId: runtime === 'pi' ? `pi-session-${index}` : ref,
      sessionFile: runtime === 'pi' ? ref : null,
      receivedHash: '1'.repeat(64),
      footprints: [],
      approvals: [],
      changedFiles: [],
    },
  };
}

/** sampleCanvas with the agent settings and sessions given. */
export function savedAgentCanvasDocument(id: string, saved: SavedAgentCanvas): CanvasDocument {
  const document = sampleCanvas(id);
  document.canvas.workingDirectory = saved.workingDirectory;
  if (saved.agentGuard) document.canvas.agentGuard = saved.agentGuard;
  if (saved.agentNetwork !== undefined) document.canvas.agentNetwork = saved.agentNetwork;
  const versions = (saved.sessions ?? []).map((each, index) => agentVersion(index, each.runtime, each.ref));
  document.nodes = document.nodes.map((node) =>
    node.kind === 'question'
      ? {
          ...node,
          id: saved.nodeId ?? node.id,
          versions,
          currentVersionId: versions.at(-1)?.id ?? null,
          ...(saved.agentGrants ? { agentGrants: saved.agentGrants } : {}),
        }
      : node,
  );
  const renamed = (nodeId: string) => (nodeId === 'question-1' ? (saved.nodeId ?? nodeId) : nodeId);
  document.wires = document.wires.map((wire) => ({ ...wire, from: renamed(wire.from), to: renamed(wire.to) }));
  return document;
}

/** Saves the canvas `id` on the test server over what it holds, as the app's flush before a turn does. */
export async function saveAgentCanvas(server: TestServer, id: string, saved: SavedAgentCanvas): Promise<void> {
  const current = await server.context.canvases.read(id).catch(() => null);
  await server.context.canvases.write(id, savedAgentCanvasDocument(id, saved), {
    baseRevision: current?.revision ?? null,
  });
}
