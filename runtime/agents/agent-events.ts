/** The runtimes Weft drives over their own machine protocols. */
export type AgentRuntimeId = 'pi' | 'codex';

/** Per canvas: ask the person, let the decision model review first, or let calls inside the folder run. */
export type GuardMode = 'ask' | 'auto-review' | 'allow';

export type ApprovalDecision = 'allow-once' | 'allow-turn' | 'deny';

/** One question a runtime put to Weft; `requestId` is the runtime's own id, unique within its process. */
export interface ApprovalRequest {
  requestId: string;
  toolCallId: string | null;
  toolName: string;
  args: unknown;
  /** The resolved path that leaves the working directory, when that is why it asks. */
  leaves: string | null;
  reason: string;
}

/** A tool's own ops (read … update), and what comparing the folder before and after the turn found. */
export type FileOperation =
  'read' | 'write' | 'edit' | 'add' | 'delete' | 'update' | 'created' | 'modified' | 'deleted';

export interface FileTouch {
  path: string;
  op: FileOperation;
  /** `shell`: found by comparing the working directory before and after the turn, not named by a tool call. */
  by?: 'shell';
}

/** One tool call of a turn as it came back from the runtime: stored on the version, left out of context. */
export interface Footprint {
  toolCallId: string;
  toolName: string;
  args: unknown;
  files: FileTouch[];
  exitCode: number | null;
  error: string | null;
}

export type TurnStatus = 'completed' | 'aborted' | 'failed';

export type AgentEvent =
  | { type: 'session'; sessionId: string; sessionFile: string | null }
  /** The prompt was written to the runtime's stdin: from here on the runtime has received it (the commit). */
  | { type: 'prompt-sent' }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-start'; toolCallId: string; toolName: string; args: unknown }
  | { type: 'tool-end'; footprint: Footprint }
  | { type: 'approval-request'; request: ApprovalRequest }
  | { type: 'turn-end'; status: TurnStatus; text: string; error: string | null };

export interface AgentTurnResult {
  status: TurnStatus;
  text: string;
  error: string | null;
  footprints: Footprint[];
  sessionId: string | null;
  sessionFile: string | null;
  /** Every approval asked in the turn with what was answered, in order. */
  approvals: { request: ApprovalRequest; decision: ApprovalDecision }[];
}
