import path from 'node:path';
import type { Adapter, RecordContext } from './adapter-types.ts';
import { getOwn, setOwn } from './own-record.ts';
import { countUnknownType } from './parse-report.ts';
import {
  addAssistantText,
  addStep,
  attachResult,
  buildSession,
  initialBuilder,
  markCompaction,
  noteCwd,
  noteModel,
  noteTime,
  openTurn,
  setTitle,
  toMillis,
  type AtlasSession,
  type BuilderState,
} from './session-builder.ts';
import { asRecord, asString, classifyTool, derivedRecordId, textOf } from './tool-steps.ts';

/**
 * pi sessions (`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`). v2/v3 entries carry `id` and
 * `parentId` (a tree); v1 entries have neither, so a turn opened by a v1 user message is keyed by
 * `<timestamp>~<sha256(line)[:12]>`. Each turn records the turn it follows in the tree (`followsTurnKey`),
 * which differs from the previous turn in file order after `/tree` branching.
 */
interface PiState {
  main: BuilderState;
  /** Entry id → opening id of the turn it belongs to ('' before the first turn). */
  turnOfEntry: Record<string, string>;
  openedIds: Record<string, number>;
}

const KNOWN_TYPES = new Set([
  'session',
  'message',
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
]);

function initial(): PiState {
  return { main: initialBuilder('pi'), turnOfEntry: {}, openedIds: {} };
}

function uniqueId(state: PiState, id: string): string {
  const seen = getOwn(state.openedIds, id) ?? 0;
  setOwn(state.openedIds, id, seen + 1);
  return seen === 0 ? id : `${id}~${seen + 1}`;
}

function currentOpeningId(state: PiState): string {
  return state.main.turns[state.main.turns.length - 1]?.openingRecordId ?? '';
}

function onMessage(state: PiState, entry: Record<string, unknown>, context: RecordContext, at: number | null): void {
  const builder = state.main;
  const message = asRecord(entry['message']);
  const role = asString(message['role']);
  const entryId = asString(entry['id']);
  // v1 entries have no id: derive one, but only where it can open a turn (hashing every line is waste).
  const recordId =
    entryId || (role === 'user' || builder.turns.length === 0 ? derivedRecordId(entry['timestamp'], context.line) : '');
  const when = at ?? toMillis(message['timestamp']);
  if (role === 'user') {
    const content = message['content'];
    const images = Array.isArray(content) ? content.filter((block) => asRecord(block)['type'] === 'image').length : 0;
    const text = textOf(content);
    const parentId = asString(entry['parentId']);
    const follows =
      parentId === '' ? currentOpeningId(state) : (getOwn(state.turnOfEntry, parentId) ?? currentOpeningId(state));
    openTurn(
      builder,
      uniqueId(state, recordId),
      images > 0 && text.trim() === '' ? `[${images} image(s)]` : text,
      when,
    );
    const turn = builder.turns[builder.turns.length - 1]!;
    // v1 entries have no tree: each turn simply follows the previous one.
    turn.followsOpeningId = follows === '' ? null : follows;
  } else if (role === 'assistant') {
    noteModel(builder, message['model']);
    const content = message['content'];
    if (typeof content === 'string') addAssistantText(builder, recordId, content, when);
    else if (Array.isArray(content)) {
      for (const block of content) {
        const item = asRecord(block);
        if (item['type'] === 'text') addAssistantText(builder, recordId, asString(item['text']), when);
        else if (item['type'] === 'toolCall') {
          const callId = asString(item['id']) || null;
          addStep(
            builder,
            recordId,
            classifyTool(callId, asString(item['name']) || 'tool', asRecord(item['arguments']), builder.currentCwd),
            when,
          );
        }
      }
    }
    if (message['stopReason'] === 'error' && typeof message['errorMessage'] === 'string') {
      addAssistantText(builder, recordId, `[error] ${message['errorMessage']}`, when);
    }
  } else if (role === 'toolResult') {
    const callId = asString(message['toolCallId']);
    const content = message['content'];
    const images = Array.isArray(content) ? content.filter((block) => asRecord(block)['type'] === 'image').length : 0;
    const text = textOf(content) || (images > 0 ? `[${images} image(s)]` : '');
    if (callId !== '') attachResult(builder, callId, text, message['isError'] === true, when);
  } else if (role === 'bashExecution') {
    // A user's `!command`: a run step with its own output, outside any model tool call.
    const command = asString(message['command']);
    addStep(
      builder,
      recordId,
      { callId: null, name: 'bash', inputSummary: `command: ${command}`, op: 'run', files: [], referenceText: command },
      when,
    );
    const turn = builder.turns[builder.turns.length - 1]!;
    const step = turn.steps[turn.steps.length - 1]!;
    step.resultSummary = asString(message['output']).slice(0, 600);
    step.isError = typeof message['exitCode'] === 'number' && message['exitCode'] !== 0;
  } else if (role === 'custom' || role === 'hookMessage' || role === 'branchSummary' || role === 'compactionSummary') {
    // Extension and summary messages are context, not conversation.
  } else if (role === '') {
    countUnknownType(context.report, 'message:(no role)');
  } else {
    countUnknownType(context.report, `message:${role}`);
  }
}

function record(state: PiState, entry: Record<string, unknown>, context: RecordContext): void {
  const type = asString(entry['type']);
  const at = toMillis(entry['timestamp']);
  const builder = state.main;
  if (!KNOWN_TYPES.has(type)) {
    countUnknownType(context.report, type === '' ? '(none)' : type);
    return;
  }
  if (type === 'session') {
    if (builder.sessionId === null) builder.sessionId = asString(entry['id']) || null;
    noteCwd(builder, entry['cwd']);
    noteModel(builder, entry['modelId'], false);
    const parent = asString(entry['parentSession']);
    if (parent !== '') {
      builder.parentSessionId =
        /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(parent)?.[1] ??
        path.basename(parent, '.jsonl');
    }
    noteTime(builder, at);
  } else if (type === 'message') {
    const message = entry['message'];
    if (message === null || typeof message !== 'object' || Array.isArray(message)) context.report.wrongShape += 1;
    else onMessage(state, entry, context, at);
  } else if (type === 'model_change') {
    noteModel(builder, entry['modelId'], false);
  } else if (type === 'compaction') {
    markCompaction(builder, at, asString(entry['summary']));
  } else if (type === 'session_info') {
    setTitle(builder, asString(entry['name']), true);
  }
  const id = asString(entry['id']);
  if (id !== '') setOwn(state.turnOfEntry, id, currentOpeningId(state));
}

function sessions(state: PiState, sourcePath: string): AtlasSession[] {
  const fallback = /_([0-9a-f-]{36})\.jsonl$/i.exec(sourcePath)?.[1] ?? path.basename(sourcePath, '.jsonl');
  return [buildSession(state.main, sourcePath, fallback)];
}

export const piAdapter: Adapter<PiState> = { initial, record, sessions };
