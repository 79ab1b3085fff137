import path from 'node:path';
import type { Adapter, RecordContext } from './adapter-types.ts';
import { getOwn, setOwn } from './own-record.ts';
import { countUnknownType } from './parse-report.ts';
import {
  addAssistantText,
  addStep,
  addUserText,
  attachResult,
  buildSession,
  initialBuilder,
  linkSubagentToCall,
  markCompaction,
  markStatus,
  noteBranch,
  noteCwd,
  noteModel,
  noteTime,
  openTurn,
  setTitle,
  toMillis,
  type AtlasSession,
  type BuilderState,
} from './session-builder.ts';
import { buildOwn, mainOrCopy, ownSession, upgradeCopyTracking, type CopyTracking } from './claude-session-copies.ts';
import { linkSessions } from './subagent-links.ts';
import { asRecord, asString, classifyTool, textOf } from './tool-steps.ts';

/**
 * Claude Code transcripts (`~/.claude/projects/<slug>/<session>.jsonl`, subagents in
 * `<session>/subagents/agent-<id>.jsonl` or older `agent-<id>.jsonl`, or inline `isSidechain` records).
 * Turn ids are record `uuid`s. A subagent session's id is `<parent session id>/agent-<agentId>`.
 */
interface ClaudeState extends CopyTracking {
  /** 'subagent' when the file's first conversational record is a sidechain of a named agent. */
  kind: 'main' | 'subagent' | null;
  /** Parent session id guessed from `<parent>/subagents/agent-<id>.jsonl`. */
  parentFromPath: string | null;
  agentFromPath: string | null;
  /** Inline sidechains in a main file, keyed by their root record uuid. */
  sidechains: Record<string, BuilderState>;
  sidechainOf: Record<string, string>;
  /** Turn-opening ids already used, to keep keys unique when a writer repeats uuids. */
  openedIds: Record<string, number>;
}

/** Record types we read or deliberately ignore; anything else is counted as unknown. */
const KNOWN_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'progress',
  'attachment',
  'file-history-snapshot',
  'queue-operation',
  'last-prompt',
  'custom-title',
  'ai-title',
  'agent-name',
  'permission-mode',
  'mode',
  'pr-link',
  'worktree-state',
  'frame-link',
  'turn_end',
]);

const NON_PROMPT_PREFIXES = [
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  '<task-notification>',
  '[Request interrupted',
];

/** Markers Claude Code writes as user text when the person interrupts: turn status, not words they typed. */
const INTERRUPT_MARKER = /^\[Request interrupted by user( for tool use)?[^\]\n]*\]\s*/;

const SESSION_FILE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function initial(sourcePath: string): ClaudeState {
  const match = /[\\/]([^\\/]+)[\\/]subagents[\\/](?:workflows[\\/][^\\/]+[\\/])?agent-([^\\/]+)\.jsonl$/.exec(
    sourcePath,
  );
  const flat = /[\\/]agent-([^\\/]+)\.jsonl$/.exec(sourcePath);
  return {
    main: initialBuilder('claude-code'),
    kind: null,
    parentFromPath: match?.[1] ?? null,
    agentFromPath: match?.[2] ?? flat?.[1] ?? null,
    sidechains: {},
    sidechainOf: {},
    openedIds: {},
    ownId: SESSION_FILE_NAME.test(path.basename(sourcePath, '.jsonl')) ? path.basename(sourcePath, '.jsonl') : null,
    copies: {},
    copiedRecords: {},
    ownRecords: 0,
  };
}

function uniqueId(state: ClaudeState, id: string): string {
  const seen = getOwn(state.openedIds, id) ?? 0;
  setOwn(state.openedIds, id, seen + 1);
  return seen === 0 ? id : `${id}~${seen + 1}`;
}

/** Which builder a conversational record belongs to (main, or an inline sidechain). */
function builderFor(state: ClaudeState, record: Record<string, unknown>): BuilderState {
  const uuid = asString(record['uuid']);
  if (state.kind === null && (record['type'] === 'user' || record['type'] === 'assistant')) {
    const agentId = asString(record['agentId']) || state.agentFromPath;
    state.kind = record['isSidechain'] === true && agentId !== null && agentId !== '' ? 'subagent' : 'main';
    if (state.kind === 'subagent') {
      const builder = state.main;
      builder.isSubagent = true;
      builder.agentId = agentId;
      const recordSession = asString(record['sessionId']);
      const parent =
        recordSession !== '' && recordSession !== `agent-${agentId}` ? recordSession : state.parentFromPath;
      builder.parentSessionId = parent;
      builder.sessionId = parent === null ? `agent-${agentId}` : `${parent}/agent-${agentId}`;
    }
  }
  if (state.kind !== 'main') return state.main;
  if (record['isSidechain'] !== true) return mainOrCopy(state, record);
  // Inline sidechain (older builds): follow parentUuid to the chain's root.
  const parentUuid = asString(record['parentUuid']);
  const root = getOwn(state.sidechainOf, parentUuid) ?? (uuid || `chain-${Object.keys(state.sidechains).length + 1}`);
  if (uuid !== '') setOwn(state.sidechainOf, uuid, root);
  let builder = getOwn(state.sidechains, root);
  if (builder === undefined) {
    builder = initialBuilder('claude-code');
    builder.isSubagent = true;
    builder.agentId = asString(record['agentId']) || null;
    // Inline sidechain records may omit cwd and branch: then they run in the main session's; their own wins.
    const ownCwd = asString(record['cwd']) || state.main.currentCwd;
    builder.cwd = ownCwd;
    builder.currentCwd = ownCwd;
    builder.gitBranch = state.main.gitBranch;
    setOwn(state.sidechains, root, builder);
  }
  return builder;
}

function isHumanPrompt(record: Record<string, unknown>, content: unknown): boolean {
  if (record['isMeta'] === true || record['isCompactSummary'] === true) return false;
  if (typeof content === 'string') return !NON_PROMPT_PREFIXES.some((prefix) => content.trimStart().startsWith(prefix));
  if (!Array.isArray(content)) return false;
  if (content.some((block) => asRecord(block)['type'] === 'tool_result')) return false;
  const text = textOf(content).trimStart();
  return !NON_PROMPT_PREFIXES.some((prefix) => text.startsWith(prefix));
}

function promptText(content: unknown): string {
  const text = textOf(content);
  const images = Array.isArray(content) ? content.filter((block) => asRecord(block)['type'] === 'image').length : 0;
  return images > 0 && text.trim() === '' ? `[${images} image${images > 1 ? 's' : ''}]` : text;
}

function subagentId(state: ClaudeState, agentId: string): string {
  const parent = state.main.sessionId ?? 'unknown';
  return `${parent}/agent-${agentId}`;
}

function onUser(state: ClaudeState, builder: BuilderState, record: Record<string, unknown>, at: number | null): void {
  const message = asRecord(record['message']);
  const content = message['content'];
  const uuid = asString(record['uuid']);
  if (record['isCompactSummary'] === true) {
    const last = builder.compactions[builder.compactions.length - 1];
    if (last !== undefined && last.summary === '') last.summary = textOf(content);
    else markCompaction(builder, at, textOf(content));
    return;
  }
  if (isHumanPrompt(record, content)) {
    openTurn(builder, uniqueId(state, uuid || `notime-${builder.turns.length + 1}`), promptText(content), at);
    return;
  }
  if (record['isMeta'] === true) return;
  if (onInterrupt(state, builder, record, content, at)) return;
  if (typeof content === 'string') {
    addUserText(builder, uuid, content, at);
    return;
  }
  if (!Array.isArray(content)) return;
  const result = asRecord(record['toolUseResult']);
  for (const block of content) {
    const item = asRecord(block);
    if (item['type'] === 'tool_result') {
      const callId = asString(item['tool_use_id']);
      const images = Array.isArray(item['content'])
        ? item['content'].filter((part) => asRecord(part)['type'] === 'image').length
        : 0;
      const text = textOf(item['content']) || asString(item['text']) || (images > 0 ? `[${images} image(s)]` : '');
      if (callId !== '') attachResult(builder, callId, text, item['is_error'] === true, at);
      const agentId = asString(result['agentId']) || (/agentId: ([A-Za-z0-9-]+)/.exec(text)?.[1] ?? '');
      if (callId !== '' && agentId !== '' && builder === state.main)
        linkSubagentToCall(builder, callId, subagentId(state, agentId));
    } else if (item['type'] === 'text') {
      addUserText(builder, uuid, asString(item['text']), at);
    }
  }
}

/**
 * `[Request interrupted by user…]` (string content or text blocks): marks the current turn and keeps the
 * marker out of its text. Words typed after the marker in the same record open the next turn.
 * Returns false when the record is not an interrupt.
 */
function onInterrupt(
  state: ClaudeState,
  builder: BuilderState,
  record: Record<string, unknown>,
  content: unknown,
  at: number | null,
): boolean {
  if (Array.isArray(content) && content.some((block) => asRecord(block)['type'] === 'tool_result')) return false;
  const text = textOf(content).trimStart();
  const marker = INTERRUPT_MARKER.exec(text);
  if (marker === null) return false;
  markStatus(builder, marker[1] === undefined ? 'interrupted' : 'interrupted-tool-use');
  const rest = text.slice(marker[0].length).trim();
  if (rest !== '') {
    const uuid = asString(record['uuid']);
    openTurn(builder, uniqueId(state, uuid || `notime-${builder.turns.length + 1}`), rest, at);
  }
  return true;
}

function onAssistant(builder: BuilderState, record: Record<string, unknown>, at: number | null): void {
  const message = asRecord(record['message']);
  const uuid = asString(record['uuid']);
  noteModel(builder, message['model']);
  const content = message['content'];
  if (typeof content === 'string') {
    addAssistantText(builder, uuid, content, at);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content) {
    const item = asRecord(block);
    if (item['type'] === 'text') addAssistantText(builder, uuid, asString(item['text']), at);
    else if (item['type'] === 'tool_use') {
      const callId = asString(item['id']) || null;
      addStep(
        builder,
        uuid,
        classifyTool(callId, asString(item['name']) || 'tool', asRecord(item['input']), builder.currentCwd),
        at,
      );
    }
  }
}

/** A user/assistant record needs `message` as an object whose content is a string, an array or absent. */
function hasMessageShape(message: unknown): boolean {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
  const content = (message as Record<string, unknown>)['content'];
  return content === undefined || content === null || typeof content === 'string' || Array.isArray(content);
}

function record(state: ClaudeState, value: Record<string, unknown>, context: RecordContext): void {
  upgradeCopyTracking(state);
  const type = asString(value['type']);
  if (!KNOWN_TYPES.has(type)) {
    countUnknownType(context.report, type === '' ? '(none)' : type);
    return;
  }
  const at = toMillis(value['timestamp']);
  if (type === 'custom-title' || type === 'ai-title') {
    setTitle(
      state.main,
      asString(value['customTitle']) || asString(value['aiTitle']),
      type === 'custom-title' || !state.main.titleIsExplicit,
    );
    return;
  }
  if (type === 'summary') {
    if (state.main.title === '') setTitle(state.main, asString(value['summary']), false);
    return;
  }
  if (type === 'progress') {
    const data = asRecord(value['data']);
    const parentCall = asString(value['parentToolUseID']);
    if (data['type'] === 'agent_progress' && typeof data['agentId'] === 'string' && parentCall !== '') {
      linkSubagentToCall(state.main, parentCall, subagentId(state, data['agentId']));
    }
    return;
  }
  if (type !== 'user' && type !== 'assistant' && type !== 'system') return;
  if (type !== 'system' && !hasMessageShape(value['message'])) {
    context.report.wrongShape += 1;
    return;
  }
  const builder = builderFor(state, value);
  if (builder.sessionId === null && typeof value['sessionId'] === 'string') builder.sessionId = value['sessionId'];
  noteCwd(builder, value['cwd']);
  noteBranch(builder, value['gitBranch']);
  if (type === 'system') {
    if (value['subtype'] === 'compact_boundary') markCompaction(builder, at, '');
    noteTime(builder, at);
    return;
  }
  if (type === 'user') onUser(state, builder, value, at);
  else onAssistant(builder, value, at);
}

function sessions(state: ClaudeState, sourcePath: string): AtlasSession[] {
  upgradeCopyTracking(state);
  const fallback = path.basename(sourcePath, '.jsonl');
  const own = ownSession(state);
  const mainId = own.sessionId ?? fallback;
  const inline = Object.entries(state.sidechains).map(([root, builder]) => {
    builder.sessionId = `${mainId}/sidechain-${root}`;
    builder.parentSessionId = mainId;
    return buildSession(builder, sourcePath, fallback);
  });
  // Inline sidechains (older builds) carry no agent id: their first prompt is the Task call's prompt.
  return linkSessions([buildOwn(state, own, sourcePath, fallback), ...inline]);
}

export const claudeCodeAdapter: Adapter<ClaudeState> = { initial, record, sessions };
