import './agents.css';

export { AgentModelOptions } from './AgentModelOptions.tsx';
export { AgentLaneSection, AgentWillSendFor } from './AgentLaneSection.tsx';
export { ApprovalCards } from './ApprovalCards.tsx';
export { useAgent } from './use-agent.ts';
export { useWorkingDirectory } from './use-working-directory.ts';
