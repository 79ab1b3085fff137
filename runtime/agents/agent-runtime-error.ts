import { WeftError } from '../../protocol/index.ts';
export type AgentRuntimeCode =
  | 'AGENT_NOT_INSTALLED'
  | 'AGENT_NOT_STARTED'
  | 'AGENT_EXITED'
  | 'AGENT_REFUSED'
  | 'AGENT_PROTOCOL'
  | 'AGENT_CWD_INVALID'
  | 'AGENT_CWD_SESSION_ROOT'
  | 'AGENT_CWD_WEFT_HOME'
  | 'AGENT_MATERIALS_INVALID'
  | 'AGENT_SANDBOX_TOO_WIDE'
  | 'AGENT_UNCONFINED_CONSENT';

/** Refusals of what the person asked for (400); the rest are the runtime's failures (502). */
const CLIENT_CODES = new Set<AgentRuntimeCode>([
  'AGENT_NOT_INSTALLED',
  'AGENT_CWD_INVALID',
  'AGENT_CWD_SESSION_ROOT',
  'AGENT_CWD_WEFT_HOME',
  'AGENT_MATERIALS_INVALID',
]);

/** A runtime that is missing, would not start, or broke its protocol; the node shows the code and message. */
export class AgentRuntimeError extends WeftError {
  constructor(code: AgentRuntimeCode, message: string, options?: { cause?: unknown }) {
    // No sandbox and no consent yet: the person must answer first (409, as for any state the server holds).
    const status = code === 'AGENT_UNCONFINED_CONSENT' ? 409 : CLIENT_CODES.has(code) ? 400 : 502;
    super(code, message, status, options);
    this.name = 'AgentRuntimeError';
  }
}
