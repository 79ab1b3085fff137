import { MessageSeparator } from './message-separator.ts';
import type {
  AgentEvent,
  ApprovalDecision,
  ApprovalRequest,
  FileOperation,
  FileTouch,
  Footprint,
  GuardMode,
  TurnStatus,
} from './agent-events.ts';
import { pathLeavingFolder } from './path-leaves-folder.ts';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The sandbox every Weft turn runs in: writes only inside the working directory (not even /tmp or $TMPDIR),
 * network off unless the person allowed it. Never `dangerFullAccess`, whatever the guard mode.
 */
export function codexSandboxPolicy(cwd: string, networkAccess: boolean): Json {
  return {
    type: 'workspaceWrite',
    writableRoots: [cwd],
    networkAccess,
    excludeTmpdirEnvVar: true,
    excludeSlashTmp: true,
  };
}

/**
 * ask and auto-review: Codex asks whenever a call would leave the sandbox (a patch or a command outside the
 * folder, network), and each request becomes a card; inside the folder the sandbox contains it. allow: nothing
 * asks, and the sandbox still refuses what leaves the folder.
 */
export function codexApprovalPolicy(mode: GuardMode): string {
  return mode === 'allow' ? 'never' : 'on-request';
}

const DECISION: Record<ApprovalDecision, string> = {
  // "For this turn" is kept by Weft's gate, which answers the turn's later requests itself: acceptForSession
  // would outlive the turn inside Codex.
  'allow-once': 'accept',
  'allow-turn': 'accept',
  deny: 'decline',
};

export interface CodexStep {
  events: AgentEvent[];
  response?: { id: number | string; result: unknown; error: string | null };
  /** A server request Weft must answer: an approval (request set) or one Weft declines (request null). */
  serverRequest?: { id: number | string; method: string; request: ApprovalRequest | null };
  finished?: boolean;
}

const OPERATION: Record<string, FileOperation> = { add: 'add', delete: 'delete', update: 'update' };

/**
 * `codex app-server` (0.171) JSON-RPC lines mapped onto Weft's agent events. Pure: the turn's state (file changes
 * per item for the approval cards, footprints, final text) lives here so it runs on recorded transcripts.
 */
export class CodexAppServerProtocol {
  readonly footprints: Footprint[] = [];
  private readonly changesByItem = new Map<string, FileTouch[]>();
  private finalText = '';
  private readonly messages = new MessageSeparator();
  private status: TurnStatus = 'completed';
  private error: string | null = null;

  constructor(private readonly cwd: string) {}

  receive(record: unknown): CodexStep {
    if (!isObject(record)) return { events: [] };
    const method = typeof record.method === 'string' ? record.method : null;
    const id = typeof record.id === 'number' || typeof record.id === 'string' ? record.id : null;
    if (method === null && id !== null) {
      const error = isObject(record.error) ? text(record.error.message) || 'error' : null;
      return { events: [], response: { id, result: record.result, error } };
    }
    if (method === null) return { events: [] };
    const params = isObject(record.params) ? record.params : {};
    if (id !== null) return this.serverRequest(id, method, params);
    return this.notification(method, params);
  }

  turnStatus(): { status: TurnStatus; text: string; error: string | null } {
    return { status: this.status, text: this.finalText, error: this.error };
  }

  private notification(method: string, params: Json): CodexStep {
    switch (method) {
      case 'item/agentMessage/delta': {
        const delta = text(params.delta);
        return { events: delta ? [{ type: 'text-delta', text: this.messages.delta(delta) }] : [] };
      }
      case 'item/started':
        return { events: this.itemStarted(params.item) };
      case 'item/completed':
        return { events: this.itemCompleted(params.item) };
      case 'turn/completed': {
        const turn = isObject(params.turn) ? params.turn : {};
        this.status = turn.status === 'interrupted' ? 'aborted' : turn.status === 'failed' ? 'failed' : 'completed';
        this.error = isObject(turn.error) ? text(turn.error.message) || null : null;
        return {
          events: [{ type: 'turn-end', status: this.status, text: this.finalText, error: this.error }],
          finished: true,
        };
      }
      default:
        return { events: [] };
    }
  }

  private itemStarted(item: unknown): AgentEvent[] {
    if (!isObject(item)) return [];
    const toolCallId = text(item.id);
    if (item.type === 'fileChange') {
      this.changesByItem.set(toolCallId, fileTouches(item.changes));
      return [{ type: 'tool-start', toolCallId, toolName: 'apply_patch', args: { changes: item.changes } }];
    }
    if (item.type === 'commandExecution')
      return [{ type: 'tool-start', toolCallId, toolName: 'shell', args: { command: item.command, cwd: item.cwd } }];
    if (item.type === 'mcpToolCall')
      return [{ type: 'tool-start', toolCallId, toolName: mcpName(item), args: item.arguments ?? null }];
    return [];
  }

  private itemCompleted(item: unknown): AgentEvent[] {
    if (!isObject(item)) return [];
    const toolCallId = text(item.id);
    let footprint: Footprint | null = null;
    if (item.type === 'agentMessage') {
      this.messages.end();
      this.finalText = text(item.text);
      return [];
    }
    if (item.type === 'fileChange') {
      const ok = item.status === 'completed';
      footprint = {
        toolCallId,
        toolName: 'apply_patch',
        args: { changes: item.changes },
        files: ok ? fileTouches(item.changes) : [],
        exitCode: null,
        error: ok ? null : `patch ${text(item.status) || 'failed'}`,
      };
    } else if (item.type === 'commandExecution') {
      const exitCode = typeof item.exitCode === 'number' ? item.exitCode : null;
      const failed = item.status === 'failed' || item.status === 'declined';
      footprint = {
        toolCallId,
        toolName: 'shell',
        args: { command: item.command, cwd: item.cwd },
        files: [],
        exitCode,
        error: failed ? text(item.aggregatedOutput) || `command ${text(item.status)}` : null,
      };
    } else if (item.type === 'mcpToolCall') {
      footprint = {
        toolCallId,
        toolName: mcpName(item),
        args: item.arguments ?? null,
        files: [],
        exitCode: null,
        error: isObject(item.error) ? text(item.error.message) || 'tool failed' : null,
      };
    }
    if (!footprint) return [];
    this.footprints.push(footprint);
    return [{ type: 'tool-end', footprint }];
  }

  private serverRequest(id: number | string, method: string, params: Json): CodexStep {
    // The JSON-RPC id counts per process, so it repeats across turns of a continued thread: the turn (or thread)
    // id makes the card's id unique, for de-duplication on the node and in the event log.
    const scope = text(params.turnId) || text(params.threadId);
    const requestId = scope ? `${scope}:${String(id)}` : String(id);
    const itemId = typeof params.itemId === 'string' ? params.itemId : null;
    if (method === 'item/commandExecution/requestApproval') {
      const command = text(params.command);
      const cwd = text(params.cwd) || this.cwd;
      const request: ApprovalRequest = {
        requestId,
        toolCallId: itemId,
        toolName: 'shell',
        args: { command, cwd },
        leaves: pathLeavingFolder(this.cwd, [cwd]),
        reason: text(params.reason) || 'shell-command',
      };
      return { events: [{ type: 'approval-request', request }], serverRequest: { id, method, request } };
    }
    if (method === 'item/fileChange/requestApproval') {
      const files = itemId ? (this.changesByItem.get(itemId) ?? []) : [];
      const grantRoot = typeof params.grantRoot === 'string' ? [params.grantRoot] : [];
      const request: ApprovalRequest = {
        requestId,
        toolCallId: itemId,
        toolName: 'apply_patch',
        args: { files, grantRoot: grantRoot[0] ?? null },
        leaves: pathLeavingFolder(this.cwd, [...files.map((file) => file.path), ...grantRoot]),
        reason: text(params.reason) || 'file-change',
      };
      return { events: [{ type: 'approval-request', request }], serverRequest: { id, method, request } };
    }
    return { events: [], serverRequest: { id, method, request: null } };
  }
}

function mcpName(item: Json): string {
  return `${text(item.server)}/${text(item.tool)}`;
}

function fileTouches(changes: unknown): FileTouch[] {
  if (!Array.isArray(changes)) return [];
  return changes.filter(isObject).map((change) => {
    const kind = isObject(change.kind) ? text(change.kind.type) : '';
    return { path: text(change.path), op: OPERATION[kind] ?? 'update' };
  });
}

/** The JSON-RPC answer to a server request: an approval decision, or a refusal of what Weft does not serve. */
export function codexServerAnswer(id: number | string, method: string, decision: ApprovalDecision | null): Json {
  if (method === 'item/commandExecution/requestApproval' || method === 'item/fileChange/requestApproval')
    return { id, result: { decision: DECISION[decision ?? 'deny'] } };
  if (method === 'item/permissions/requestApproval') return { id, result: { permissions: {}, scope: 'turn' } };
  return { id, error: { code: -32601, message: `Weft does not serve ${method}` } };
}
