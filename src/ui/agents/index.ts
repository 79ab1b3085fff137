import './agents.css';

export { AgentModelOptions } from './AgentModelOptions.tsx';
export { AgentLaneSection, AgentWillSendFor } from './AgentLaneSection.tsx';
export { ApprovalCards } from './ApprovalCards.tsx';
export { agentModel, agentPlan, type AgentPlan } from './agent-plan.ts';
export { agentStore } from './agent-state.ts';
export { runAgentTurn, stopAgentTurn } from './run-agent-turn.ts';
export { useAgent } from './use-agent.ts';
