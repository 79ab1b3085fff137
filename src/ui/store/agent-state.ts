import { createStore } from 'zustand/vanilla';
import type { ApprovalRequestValue as ApprovalRequest } from '../../../protocol/index.ts';
import type { AgentRuntimes } from '../api/index.ts';

/** An open approval card on a node: the runtime's question and the turn it belongs to. */
export interface ApprovalCard {
  turnId: string;
  request: ApprovalRequest;
  /** Set while the answer is on its way, so a double click sends one answer. */
  answering: boolean;
}

export interface LiveAgentTurn {
  runtime: 'pi' | 'codex';
  text: string;
  tools: number;
  controller: AbortController;
  /** The server's id of the turn, once it started: Stop goes through it so the turn's end still arrives. */
  turnId?: string;
}

/** The agent lane's UI state beside the canvas store (which only receives the commit, decisions and the version). */
export interface AgentState {
  runtimes: AgentRuntimes | null;
  live: Record<string, LiveAgentTurn>;
  cards: Record<string, ApprovalCard[]>;
}

export const agentStore = createStore<AgentState>()(() => ({ runtimes: null, live: {}, cards: {} }));
