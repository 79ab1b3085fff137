import { agentCommit, upstreamSnapshot, type GraphChange } from '../../core/index.ts';
import type { AgentVersion, ApprovalRecord, FootprintValue } from '../../../protocol/index.ts';
import { agentApi, clientHandshake, describeError, type AgentApi } from '../api/index.ts';
import type { WeftState } from './weft-state.ts';

/** What a turn needs of the canvas store: its state and actions (the store itself, or its `get`). */
export type StoreAccess = { getState: () => WeftState };
import { agentPlan } from './agent-plan.ts';
import { agentStore, type ApprovalCard } from './agent-state.ts';
import { keepAgentAnswer } from './kept-agent-answers.ts';

function setCards(nodeId: string, update: (cards: ApprovalCard[]) => ApprovalCard[]): void {
  agentStore.setState((state) => {
    const cards = { ...state.cards, [nodeId]: update(state.cards[nodeId] ?? []) };
    if (cards[nodeId]!.length === 0) delete cards[nodeId];
    return { cards };
  });
}

/** A person's answer on a card; the card leaves when the server reports the decision. */
export async function answerCard(
  store: StoreAccess,
  nodeId: string,
  card: ApprovalCard,
  decision: 'allow-once' | 'allow-turn' | 'deny',
): Promise<void> {
  if (card.answering) return;
  setCards(nodeId, (cards) =>
    cards.map((open) => (open.request.requestId === card.request.requestId ? { ...open, answering: true } : open)),
  );
  try {
    await agentApi.answer(card.turnId, card.request.requestId, decision);
  } catch (error) {
    const { code, message } = describeError(error);
    store.getState().toast('error', code, `The answer did not reach the agent: ${message}`);
    setCards(nodeId, (cards) => cards.filter((open) => open.request.requestId !== card.request.requestId));
  }
}

/** How long Stop waits for the stopped turn's end (its footprints, changed files) before closing the stream. */
const STOP_GRACE_MS = 5000;

/**
 * Stop asks the server to abort the turn and keeps reading its stream, so the footprints and changed files of the
 * stopped turn still arrive; a turn that does not end in time (or a refused stop) is cut off by closing the stream.
 */
export function stopAgentTurn(nodeId: string): void {
  const live = agentStore.getState().live[nodeId];
  if (!live) return;
  const { controller, turnId } = live;
  if (!turnId) return controller.abort();
  setTimeout(() => controller.abort(), STOP_GRACE_MS);
  agentApi.stop(turnId).catch(() => controller.abort());
}

/**
 * C24: one agent turn of a node. The commit is written when the server confirms the hash of the text it handed the
 * runtime; deltas stream onto the node; cards open and close on it; every decision is an event; the version keeps
 * the session, footprints, approvals and changed files. `api`: the page's client unless a test hands its own.
 */
export async function runAgentTurn(store: StoreAccess, nodeId: string, api: AgentApi = agentApi): Promise<boolean> {
  const state = store.getState();
  const graph = state.graph;
  const node = graph?.nodes.get(nodeId);
  const plan = graph && agentPlan(graph, state.shown, nodeId);
  if (!graph || !node || node.kind !== 'question' || !plan) return false;
  const cwd = graph.canvas.workingDirectory;
  if (!cwd) {
    state.toast('error', 'agent-no-folder', "Set this canvas's working directory before asking an agent.");
    return false;
  }
  if (agentStore.getState().live[nodeId]) return false;
  // The server reads the network switch from the saved canvas: save first, so a switch just flipped is what it reads.
  await state.flush();
  const canvasId = graph.canvas.id;
  const snapshot = upstreamSnapshot(graph, nodeId);
  const { receivedHash, commit } = agentCommit(nodeId, plan.prompt, { runtime: plan.runtime, model: node.model! });
  const controller = new AbortController();
  agentStore.setState((current) => ({
    live: { ...current.live, [nodeId]: { runtime: plan.runtime, text: '', tools: 0, controller } },
  }));
  const setLive = (patch: { text?: string; tools?: number }) =>
    agentStore.setState((current) => {
      const live = current.live[nodeId];
      return live ? { live: { ...current.live, [nodeId]: { ...live, ...patch } } } : {};
    });
  const sameCanvas = () => store.getState().graph?.canvas.id === canvasId;
  // What the turn records while the person is on another canvas waits for its own canvas (kept-agent-answers).
  const missed: GraphChange[] = [];
  const record = (change: GraphChange) => {
    if (sameCanvas()) store.getState().apply(change);
    else missed.push(change);
  };
  const handshake = clientHandshake({
    expectedHash: receivedHash,
    what: 'prompt',
    controller,
    refuse: (code, message) => state.toast('error', code, message),
  });
  let text = '';
  let tools = 0;
  let status: 'complete' | 'failed' | 'aborted' = 'aborted';
  let session: { sessionId: string; sessionFile: string | null } | null = null;
  let changedFiles: string[] = [];
  const footprints: FootprintValue[] = [];
  const approvals: ApprovalRecord[] = [];
  try {
    for await (const event of api.turn(
      {
        runtime: plan.runtime,
        canvasId,
        nodeId,
        cwd,
        guardMode: graph.canvas.agentGuard ?? 'ask',
        text: plan.prompt.text,
        receivedHash,
        model: plan.model,
        session: plan.session,
        networkAccess: graph.canvas.agentNetwork === true,
        materials: plan.materials.map((file) => ({ fileName: file.fileName, text: file.text })),
      },
      controller.signal,
    )) {
      if (event.type === 'agent-started') {
        const acceptance = handshake.receive(event.receivedHash);
        if (acceptance === 'refused') {
          status = 'failed';
          break;
        }
        if (acceptance === 'repeated') continue;
        const turnId = event.turnId;
        agentStore.setState((current) => {
          const live = current.live[nodeId];
          return live ? { live: { ...current.live, [nodeId]: { ...live, turnId } } } : {};
        });
      } else if (event.type === 'agent-prompt-delivered') {
        // C9: the commit is written once the runtime's stdin took the prompt, not when the server began.
        handshake.commit(() => record({ type: 'record', event: commit }));
      } else if (event.type === 'text-delta') {
        text += event.delta;
        setLive({ text });
      } else if (event.type === 'agent-session') {
        session = { sessionId: event.sessionId, sessionFile: event.sessionFile };
      } else if (event.type === 'agent-tool-started') {
        tools += 1;
        setLive({ tools });
      } else if (event.type === 'agent-footprint') {
        footprints.push(event.footprint);
      } else if (event.type === 'agent-approval-requested') {
        setCards(nodeId, (cards) =>
          cards.some((card) => card.request.requestId === event.request.requestId)
            ? cards
            : [...cards, { turnId: event.turnId, request: event.request, answering: false }],
        );
      } else if (event.type === 'agent-approval-decided') {
        setCards(nodeId, (cards) => cards.filter((open) => open.request.requestId !== event.requestId));
        // The event names the tool and path itself: the judge and "allow for this turn" decide without a card.
        const toolName = event.toolName;
        approvals.push({
          requestId: event.requestId,
          toolName,
          leaves: event.leaves,
          decision: event.decision,
          by: event.by,
          at: Date.now(),
        });
        record({
          type: 'record',
          event: {
            op: 'approval',
            objectId: nodeId,
            meta: { requestId: event.requestId.slice(0, 200), toolName, decision: event.decision, by: event.by },
          },
        });
      } else if (event.type === 'agent-finished') {
        status = event.status === 'completed' ? 'complete' : event.status;
        // The version keeps the agent's last message (its answer); the live view showed every message as it came.
        if (event.text) text = event.text;
        changedFiles = event.changedFiles;
        if (event.error) state.toast('error', 'agent-failed', event.error);
      } else if (event.type === 'agent-failed') {
        status = 'failed';
        state.toast('error', event.code, event.message);
      }
    }
  } catch (error) {
    const { code, message } = describeError(error);
    if (!controller.signal.aborted) {
      status = 'failed';
      state.toast('error', code, message);
    }
  } finally {
    agentStore.setState((current) => {
      const live = { ...current.live };
      delete live[nodeId];
      const cards = { ...current.cards };
      delete cards[nodeId];
      return { live, cards };
    });
  }
  if (!handshake.committed) return false;
  const agent: AgentVersion = {
    runtime: plan.runtime,
    sessionId: session?.sessionId ?? null,
    sessionFile: session?.sessionFile ?? null,
    receivedHash,
    footprints,
    approvals,
    changedFiles,
  };
  const addVersion: GraphChange = {
    type: 'add-version',
    nodeId,
    select: true,
    version: {
      text,
      question: node.question,
      model: node.model!,
      requestHash: receivedHash,
      upstreamFingerprint: snapshot.upstreamFingerprint,
      upstream: snapshot.upstream,
      origin: 'generated',
      status,
      branchOf: null,
      agent,
    },
  };
  if (!sameCanvas()) {
    keepAgentAnswer(canvasId, nodeId, [...missed, addVersion]);
    state.toast(
      'info',
      'agent-canvas-left',
      'The agent turn finished on a closed canvas; its answer is shown there when you open it.',
    );
    return false;
  }
  for (const change of missed) store.getState().apply(change);
  store.getState().apply(addVersion);
  // C32: the agent's final text gets its plaque like a chat answer (fire-and-forget; the rule writes it for agents).
  const kept = store.getState().graph?.nodes.get(nodeId);
  if (status === 'complete' && text && kept?.kind === 'question' && kept.currentVersionId)
    void store.getState().plaqueAfterAnswer(nodeId, kept.currentVersionId);
  return status === 'complete';
}
