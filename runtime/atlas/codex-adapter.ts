import path from 'node:path';
import type { ParseReport } from '../../protocol/index.ts';
import type { Adapter, RecordContext } from './adapter-types.ts';
import { getOwn, setOwn } from './own-record.ts';
import { addCodexToolCall } from './codex-tool-call.ts';
import { outputSummary, outputText, parseArguments } from './codex-tool-input.ts';
import { countUnknownType } from './parse-report.ts';
import {
  addAssistantText,
  addStep,
  attachResult,
  buildSession,
  initialBuilder,
  markCompaction,
  noteBranch,
  noteCwd,
  noteModel,
  noteTime,
  openTurn,
  addUserText,
  fillPrompt,
  setTitle,
  toMillis,
  type AtlasSession,
  type BuilderState,
} from './session-builder.ts';
import { asRecord, asString, classifyTool, derivedRecordId, summarizeInput, textOf } from './tool-steps.ts';

/**
 * Codex rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-…-<thread>.jsonl`). Records carry no ids, so a
 * turn is keyed by `task_started.turn_id` when the build writes one, else by a derived id
 * (`<timestamp>~<sha256(line)[:12]>`) of the record that opened it; appending lines never changes either.
 * Human prompts: `event_msg.user_message` when the build writes it; otherwise (newest and legacy builds)
 * a user-role `response_item` message that is not harness-injected context.
 */
interface CodexState {
  main: BuilderState;
  metaSeen: boolean;
  /** True once any event_msg.user_message was seen: response_item user messages are then copies. */
  hasUserEvents: boolean;
  /** A response_item user message waiting to learn whether an event copy follows. */
  candidate: { id: string; text: string; at: number | null } | null;
  /** The turn currently open through task_started, and whether a prompt has filled it. */
  taskTurnOpen: boolean;
  taskTurnHasPrompt: boolean;
  /** The current turn already belongs to a task_started (so a later task_started opens a new turn). */
  turnHasTask: boolean;
  /** The current turn saw assistant or tool activity (a later task_started then opens a new turn). */
  activity: boolean;
  lastAssistantText: string;
  openedIds: Record<string, number>;
}

const KNOWN_KINDS = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
  'world_state',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
]);
const LEGACY_ITEMS = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
  'local_shell_call',
  'web_search_call',
]);
const INJECTED =
  /^\s*(<environment_context>|<user_instructions>|<INSTRUCTIONS>|<skills_instructions>|<turn_aborted>|<permissions instructions>|<collaboration_mode>|<user_shell_command>|# AGENTS\.md instructions|<subagent_notification>)/;

function initial(): CodexState {
  return {
    main: initialBuilder('codex'),
    metaSeen: false,
    hasUserEvents: false,
    candidate: null,
    taskTurnOpen: false,
    taskTurnHasPrompt: false,
    turnHasTask: false,
    activity: false,
    lastAssistantText: '',
    openedIds: {},
  };
}

function uniqueId(state: CodexState, id: string): string {
  const seen = getOwn(state.openedIds, id) ?? 0;
  setOwn(state.openedIds, id, seen + 1);
  return seen === 0 ? id : `${id}~${seen + 1}`;
}

function applyPrompt(state: CodexState, id: string, text: string, at: number | null): void {
  const builder = state.main;
  if (state.taskTurnOpen && !state.taskTurnHasPrompt && builder.turns.length > 0) {
    fillPrompt(builder, text);
    state.taskTurnHasPrompt = true;
  } else if (state.taskTurnOpen && builder.turns.length > 0) {
    addUserText(builder, id, text, at);
  } else {
    openTurn(builder, uniqueId(state, id), text, at);
    state.turnHasTask = false;
    state.activity = false;
    state.lastAssistantText = '';
  }
  noteTime(builder, at);
}

/**
 * Commit a waiting response_item prompt, on the first assistant or tool activity after it — only when
 * the build writes no user_message events (those are authoritative and arrive right after the copy).
 */
function settleCandidate(state: CodexState): void {
  const candidate = state.candidate;
  state.candidate = null;
  if (candidate === null || state.hasUserEvents) return;
  applyPrompt(state, candidate.id, candidate.text, candidate.at);
}

function noteActivity(state: CodexState): void {
  settleCandidate(state);
  state.activity = true;
}

/**
 * The id for a record that only opens a turn when none exists yet (activity before any prompt).
 * Hashing every large output line would be wasted work, so it is derived only when it can be used.
 */
function implicitId(state: CodexState, timestamp: unknown, context: RecordContext): string {
  return state.main.turns.length > 0 ? '' : derivedRecordId(timestamp, context.line);
}

function onResponseItem(
  state: CodexState,
  item: Record<string, unknown>,
  context: RecordContext,
  at: number | null,
  timestamp: unknown,
): void {
  const builder = state.main;
  const type = asString(item['type']);
  if (type === 'message') {
    const role = item['role'];
    const text = textOf(item['content']);
    if (role === 'user') {
      if (INJECTED.test(text) || text.trim() === '' || state.hasUserEvents) return;
      // Consecutive user messages with nothing between them are one prompt (text plus attachments).
      if (state.candidate !== null) state.candidate.text = `${state.candidate.text}\n\n${text}`;
      else state.candidate = { id: derivedRecordId(timestamp, context.line), text, at };
    } else if (role === 'assistant') {
      noteActivity(state);
      if (text !== state.lastAssistantText) addAssistantText(builder, implicitId(state, timestamp, context), text, at);
      state.lastAssistantText = text;
    }
    return;
  }
  const id = implicitId(state, timestamp, context);
  const callId = asString(item['call_id']) || null;
  if (type === 'function_call' || type === 'custom_tool_call') {
    noteActivity(state);
    const name = asString(item['name']) || 'tool';
    const input =
      type === 'custom_tool_call'
        ? name === 'apply_patch'
          ? { input: item['input'] }
          : parseArguments(item['input'])
        : parseArguments(item['arguments']);
    addCodexToolCall(state.main, id, callId, name, input, at);
  } else if (type === 'local_shell_call') {
    noteActivity(state);
    const action = asRecord(item['action']);
    addCodexToolCall(
      state.main,
      id,
      callId,
      'local_shell_call',
      { command: action['command'], workdir: action['working_directory'] },
      at,
    );
  } else if (type === 'web_search_call') {
    noteActivity(state);
    const action = asRecord(item['action']);
    const query = asString(action['query']) || asString(action['url']);
    addStep(
      builder,
      id,
      {
        callId,
        name: 'web_search',
        inputSummary: summarizeInput('web_search', { query }),
        op: action['type'] === 'open_page' ? 'fetch' : 'search',
        files: [],
        referenceText: JSON.stringify(action),
      },
      at,
    );
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const { text, isError } = outputText(item['output']);
    if (callId !== null) attachResult(builder, callId, text, isError, at);
  } else if (type === 'reasoning') {
    noteActivity(state);
  } else if (type === 'tool_search_call') {
    // Newer builds find MCP and deferred tools by searching for them first.
    noteActivity(state);
    const input = parseArguments(item['arguments']);
    const query = asString(input['query']) || JSON.stringify(input['paths'] ?? input);
    addStep(
      builder,
      id,
      { callId, name: 'tool_search', inputSummary: `query: ${query}`, op: 'search', files: [], referenceText: '' },
      at,
    );
  } else if (type.endsWith('_call') && type !== 'web_search_call') {
    // Item kinds newer than this adapter (image_generation_call, mcp_call, …) are steps all the same.
    noteActivity(state);
    const { type: _type, id: _id, call_id: _callId, ...fields } = item;
    const input = parseArguments(item['arguments'] ?? item['input'] ?? item['action'] ?? fields);
    const step = classifyTool(callId, type.slice(0, -'_call'.length), input, builder.currentCwd);
    addStep(builder, id, step, at);
  } else if (type.endsWith('_output') && callId !== null) {
    attachResult(builder, callId, outputSummary(item), asString(item['status']) === 'failed', at);
  }
}

function onEvent(
  state: CodexState,
  event: Record<string, unknown>,
  context: RecordContext,
  at: number | null,
  timestamp: unknown,
): void {
  const type = asString(event['type']);
  const builder = state.main;
  if (type === 'user_message') {
    state.hasUserEvents = true;
    state.candidate = null;
    const text = asString(event['message']);
    const images = Array.isArray(event['images']) ? event['images'].length : 0;
    applyPrompt(
      state,
      derivedRecordId(timestamp, context.line),
      text === '' && images > 0 ? `[${images} image(s)]` : text,
      at,
    );
  } else if (type === 'task_started') {
    // A waiting response_item prompt stays waiting: it becomes this task's prompt unless an event copy follows.
    const turnId = asString(event['turn_id']);
    const current = builder.turns[builder.turns.length - 1];
    // A prompt that came just before its task_started already opened this turn; keep that key.
    if (
      current !== undefined &&
      !state.turnHasTask &&
      !state.taskTurnOpen &&
      !state.activity &&
      current.steps.length === 0 &&
      current.assistantText === '' &&
      current.userText !== ''
    ) {
      state.taskTurnOpen = true;
      state.taskTurnHasPrompt = true;
      state.turnHasTask = true;
      return;
    }
    openTurn(builder, uniqueId(state, turnId || derivedRecordId(timestamp, context.line)), '', at);
    state.taskTurnOpen = true;
    state.taskTurnHasPrompt = false;
    state.turnHasTask = true;
    state.activity = false;
    state.lastAssistantText = '';
  } else if (type === 'task_complete' || type === 'turn_aborted') {
    settleCandidate(state);
    state.taskTurnOpen = false;
    noteTime(builder, at);
  } else if (type === 'agent_message') {
    noteActivity(state);
    const text = asString(event['message']);
    if (text !== state.lastAssistantText) addAssistantText(builder, implicitId(state, timestamp, context), text, at);
    state.lastAssistantText = text;
  } else if (type === 'thread_name_updated') {
    setTitle(builder, asString(event['thread_name']), true);
  }
}

function onSessionMeta(state: CodexState, meta: Record<string, unknown>, at: number | null): void {
  if (state.metaSeen) return; // Later session_meta lines are copies of ancestors (forks, subagents).
  state.metaSeen = true;
  const builder = state.main;
  builder.sessionId = asString(meta['id']) || asString(meta['session_id']) || null;
  noteCwd(builder, meta['cwd']);
  noteBranch(builder, asRecord(meta['git'])['branch']);
  const source = asRecord(meta['source']);
  const spawn = asRecord(asRecord(source['subagent'])['thread_spawn']);
  const parent =
    asString(spawn['parent_thread_id']) || asString(meta['parent_thread_id']) || asString(meta['forked_from_id']);
  if (parent !== '') builder.parentSessionId = parent;
  builder.isSubagent = 'subagent' in source || asString(meta['parent_thread_id']) !== '';
  if (typeof spawn['agent_nickname'] === 'string') builder.agentId = spawn['agent_nickname'];
  noteTime(builder, toMillis(meta['timestamp']) ?? at);
}

function record(state: CodexState, value: Record<string, unknown>, context: RecordContext): void {
  const report: ParseReport = context.report;
  const timestamp = value['timestamp'];
  const at = toMillis(timestamp);
  const kind = asString(value['type']);
  const payload = asRecord(value['payload']);
  if ('payload' in value && KNOWN_KINDS.has(kind)) {
    const raw = value['payload'];
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      report.wrongShape += 1;
      return;
    }
    if (kind === 'session_meta') onSessionMeta(state, payload, at);
    else if (kind === 'turn_context') {
      noteCwd(state.main, payload['cwd']);
      // The first turn_context of a turn (written after task_started) is where that turn runs.
      const turn = state.main.turns[state.main.turns.length - 1];
      if (turn !== undefined && typeof payload['cwd'] === 'string' && payload['cwd'] !== '') {
        if (turn.steps.length === 0 && turn.assistantText === '') turn.cwd = payload['cwd'];
      }
      // Between tasks a turn_context describes the next turn, not the finished one.
      noteModel(state.main, payload['model'], state.taskTurnOpen || !state.activity);
    } else if (kind === 'response_item') onResponseItem(state, payload, context, at, timestamp);
    else if (kind === 'event_msg') onEvent(state, payload, context, at, timestamp);
    else if (kind === 'compacted') {
      settleCandidate(state);
      markCompaction(state.main, at, asString(payload['message']));
    }
    return;
  }
  // Legacy rollouts: a bare header, state markers, and bare response items.
  if (value['record_type'] === 'state') return;
  if (!state.metaSeen && typeof value['id'] === 'string' && kind === '') {
    onSessionMeta(state, value, at);
    return;
  }
  if (LEGACY_ITEMS.has(kind)) {
    onResponseItem(state, value, context, at, timestamp);
    return;
  }
  countUnknownType(report, kind === '' ? '(none)' : kind);
}

function sessions(state: CodexState, sourcePath: string): AtlasSession[] {
  // The state is a copy here: a prompt still waiting for its event copy is shown as a prompt.
  settleCandidate(state);
  const fallback =
    /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i.exec(sourcePath)?.[1] ??
    path.basename(sourcePath.replace(/\.zst$/, ''), '.jsonl');
  return [buildSession(state.main, sourcePath, fallback)];
}

export const codexAdapter: Adapter<CodexState> = { initial, record, sessions };
