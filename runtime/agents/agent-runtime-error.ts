import { WeftError } from '../fs/index.ts';

export type AgentRuntimeCode =
  | 'AGENT_NOT_INSTALLED'
  | 'AGENT_NOT_STARTED'
  | 'AGENT_EXITED'
  | 'AGENT_REFUSED'
  | 'AGENT_PROTOCOL'
  | 'AGENT_CWD_INVALID';

/** A runtime that is missing, would not start, or broke its protocol; the node shows the code and message. */
export class AgentRuntimeError extends WeftError {
  constructor(code: AgentRuntimeCode, message: string, options?: { cause?: unknown }) {
    super(code, message, code === 'AGENT_NOT_INSTALLED' || code === 'AGENT_CWD_INVALID' ? 400 : 502, options);
    this.name = 'AgentRuntimeError';
  }
}
