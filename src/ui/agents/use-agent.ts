import { useStore } from 'zustand';
import { agentStore, type AgentState } from '../store/index.ts';

export function useAgent<T>(selector: (state: AgentState) => T): T {
  return useStore(agentStore, selector);
}
