import { MessageSeparator } from './message-separator.ts';
import type {
  AgentEvent,
  ApprovalDecision,
  ApprovalRequest,
  FileOperation,
  FileTouch,
  Footprint,
  TurnStatus,
} from './agent-events.ts';
import { expandPiPath } from './pi-guard-extension.mjs';

/** The guard's dialog options (pi-guard-extension.mjs): the answer is one of these strings. */
export const PI_GUARD_OPTIONS: Record<ApprovalDecision, string> = {
  'allow-once': 'Allow once',
  'allow-turn': 'Allow for this turn',
  deny: 'Deny',
};
const GUARD_TITLE = 'weft-guard ';

const FILE_OPERATION: Record<string, FileOperation> = {
  read: 'read',
  write: 'write',
  edit: 'edit',
  ls: 'read',
  find: 'read',
  grep: 'read',
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The text blocks of a Pi message or tool result, joined. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return text(content);
  return content
    .filter((block): block is Json => isObject(block) && block.type === 'text')
    .map((block) => text(block.text))
    .join('');
}

/** What a Pi record means for Weft; the outgoing records it calls for are built by the methods below. */
export interface PiStep {
  events: AgentEvent[];
  /** A guard dialog Weft must answer (or a foreign dialog Weft cancels). */
  dialog?: { id: string; request: ApprovalRequest | null };
  /** The response to one of Weft's commands. */
  response?: { id: string | null; command: string; success: boolean; data: unknown; error: string | null };
  finished?: boolean;
}

/**
 * Pi's RPC stdout (`pi --mode rpc`, 0.73) mapped onto Weft's agent events. Pure: it keeps the turn's state
 * (arguments per tool call, footprints, final text) and never touches a process, so it runs on recorded transcripts.
 */
export class PiRpcProtocol {
  readonly footprints: Footprint[] = [];
  private readonly argsByCall = new Map<string, { toolName: string; args: unknown }>();
  private finalText = '';
  private readonly messages = new MessageSeparator();
  private status: TurnStatus = 'completed';
  private error: string | null = null;

  receive(record: unknown): PiStep {
    if (!isObject(record)) return { events: [] };
    switch (record.type) {
      case 'response':
        return {
          events: [],
          response: {
            id: typeof record.id === 'string' ? record.id : null,
            command: text(record.command),
            success: record.success === true,
            data: record.data,
            error: typeof record.error === 'string' ? record.error : null,
          },
        };
      case 'message_update':
        return { events: this.delta(record.assistantMessageEvent) };
      case 'message_end':
        this.messages.end();
        this.noteAssistant(record.message);
        return { events: [] };
      case 'tool_execution_start': {
        const toolCallId = text(record.toolCallId);
        const toolName = text(record.toolName);
        this.argsByCall.set(toolCallId, { toolName, args: record.args });
        return { events: [{ type: 'tool-start', toolCallId, toolName, args: record.args }] };
      }
      case 'tool_execution_end': {
        const footprint = this.footprint(record);
        this.footprints.push(footprint);
        return { events: [{ type: 'tool-end', footprint }] };
      }
      case 'extension_ui_request':
        return this.dialog(record);
      case 'agent_end':
        return {
          events: [{ type: 'turn-end', status: this.status, text: this.finalText, error: this.error }],
          finished: true,
        };
      default:
        return { events: [] };
    }
  }

  turnStatus(): { status: TurnStatus; text: string; error: string | null } {
    return { status: this.status, text: this.finalText, error: this.error };
  }

  private delta(event: unknown): AgentEvent[] {
    if (!isObject(event) || event.type !== 'text_delta') return [];
    const delta = text(event.delta);
    return delta ? [{ type: 'text-delta', text: this.messages.delta(delta) }] : [];
  }

  private noteAssistant(message: unknown): void {
    if (!isObject(message) || message.role !== 'assistant') return;
    const said = contentText(message.content);
    if (said) this.finalText = said;
    if (message.stopReason === 'aborted') this.status = 'aborted';
    else if (message.stopReason === 'error') {
      this.status = 'failed';
      this.error = text(message.errorMessage) || 'the model call failed';
    } else {
      this.status = 'completed';
      this.error = null;
    }
  }

  private footprint(record: Json): Footprint {
    const toolCallId = text(record.toolCallId);
    const started = this.argsByCall.get(toolCallId);
    const toolName = text(record.toolName) || started?.toolName || '';
    const args = started?.args ?? record.args ?? null;
    const result = isObject(record.result) ? record.result : {};
    const output = contentText(result.content);
    const isError = record.isError === true;
    const files: FileTouch[] = [];
    const op = FILE_OPERATION[toolName];
    const path = isObject(args) ? args.path : undefined;
    // A blocked or failed call touched nothing; a read-like tool without a path reads the working directory.
    // The path as Pi's tool opened it (`@x`, `~/x`), so the files named downstream are the files touched.
    if (op && !isError) files.push({ path: typeof path === 'string' ? expandPiPath(path) : '.', op });
    const exited = /exited with code (\d+)/.exec(output);
    const exitCode = toolName === 'bash' ? (exited ? Number(exited[1]) : isError ? null : 0) : null;
    return { toolCallId, toolName, args, files, exitCode, error: isError ? output || 'the tool failed' : null };
  }

  private dialog(record: Json): PiStep {
    const method = text(record.method);
    const id = text(record.id);
    if (method !== 'select' && method !== 'confirm' && method !== 'input' && method !== 'editor') return { events: [] };
    const title = text(record.title);
    if (method !== 'select' || !title.startsWith(GUARD_TITLE)) return { events: [], dialog: { id, request: null } };
    let asked: unknown;
    try {
      asked = JSON.parse(title.slice(GUARD_TITLE.length));
    } catch {
      return { events: [], dialog: { id, request: null } };
    }
    if (!isObject(asked)) return { events: [], dialog: { id, request: null } };
    const request: ApprovalRequest = {
      requestId: id,
      toolCallId: typeof asked.toolCallId === 'string' ? asked.toolCallId : null,
      toolName: text(asked.toolName),
      args: asked.args ?? null,
      leaves: typeof asked.leaves === 'string' ? asked.leaves : null,
      reason: text(asked.reason),
    };
    return { events: [{ type: 'approval-request', request }], dialog: { id, request } };
  }
}

/** The stdin record that answers a guard dialog; a foreign dialog (request null) is cancelled. */
export function piDialogAnswer(id: string, decision: ApprovalDecision | null): Json {
  if (decision === null) return { type: 'extension_ui_response', id, cancelled: true };
  return { type: 'extension_ui_response', id, value: PI_GUARD_OPTIONS[decision] };
}
