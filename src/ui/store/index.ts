// src/ui/store: the zustand store; thin actions that call core and persist what changed.
export { createWeftStore } from './weft-store.ts';
export type { WeftStore } from './weft-store.ts';
export type {
  WeftState,
  View,
  WorkspaceView,
  Toast,
  LiveStream,
  ReplayProgress,
  ProgressJob,
  AskOptions,
} from './weft-state.ts';
export type { AppDependencies } from './app-dependencies.ts';
export { createIdGenerator } from './app-dependencies.ts';
export { plannedRequest, modelFor, nodePrices } from './planned-request.ts';
export { modelSetPlan, type ModelSetPlan, type ModelSetPlanResult } from './model-set-plan.ts';
export { recordsFromGraph } from './store-runtime.ts';
export { agentModel, agentPlan } from './agent-plan.ts';
export { agentStore } from './agent-state.ts';
export type { ApprovalCard, AgentState } from './agent-state.ts';
export { answerCard, stopAgentTurn } from './run-agent-turn.ts';
export { nodeTitle, shortModel, isReceiptModel } from './node-labels.ts';
export { memoryClient } from './memory-client.ts';
export { recallClient, recallCacheKey } from './recall-client.ts';
export { MEMORY_UNDO_COMMAND } from './memory-after-ask.ts';
export type { SubQuestionProposal } from './authoring-types.ts';
export { keyOriginWarning } from './key-origin-notice.ts';
export { nodeTokenCounters, plannedUnhashedRequest } from './planned-request.ts';
export type { RecallEntry } from './recall-client.ts';
export type { UnappliedChanges } from './unapplied-changes.ts';
export { browserPageLocks } from './page-locks.ts';
