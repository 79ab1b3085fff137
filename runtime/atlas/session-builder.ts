import type { Runner, Session, ToolOp, ToolStep, Turn } from '../../protocol/index.ts';
import { getOwn, setOwn } from './own-record.ts';
import { findReferences } from './references.ts';

/** Caps on what a turn keeps (the raw file stays the record of truth). */
export const MAX_TURN_TEXT = 64 * 1024;
export const MAX_INPUT_SUMMARY = 400;
export const MAX_RESULT_SUMMARY = 600;

/** A Session as the adapters emit it: the protocol type plus additive fields. */
/** A Turn plus additive fields. */
export type AtlasTurn = Turn & {
  /** pi only: the turn this one continues in the conversation tree (`parentId`); differs from the previous turn after a branch. */
  followsTurnKey?: string | null;
  /** The working directory of the record that opened the turn (falls back to the session's). */
  cwd: string | null;
  /** How the turn ended when the runner marked it, e.g. `interrupted` (a harness marker, never question text). */
  status: TurnStatus | null;
};

/** Turn endings the runners mark in their files. */
export type TurnStatus = 'interrupted' | 'interrupted-tool-use';

export type AtlasSession = Omit<Session, 'turns'> & {
  turns: AtlasTurn[];
  /** Claude Code subagent id (`agent-<id>.jsonl`), when this session is a subagent run. */
  agentId: string | null;
  /**
   * Claude Code continued/resumed sessions: the session whose records this file starts with (copied from
   * its file; they are not turns of this session), and how many such records were recognised.
   */
  continuesSessionId?: string | null;
  copiedRecords?: number;
  /** The tool-call id in the parent that spawned this run, when known. */
  parentToolCallId: string | null;
};

export type BuilderTurn = Omit<Turn, 'key' | 'number'> & {
  followsOpeningId?: string | null;
  cwd: string | null;
  status: TurnStatus | null;
};

/** Plain-JSON state shared by the three adapters; adapters keep their own extras beside it. */
export interface BuilderState {
  runner: Runner;
  sessionId: string | null;
  title: string;
  titleIsExplicit: boolean;
  cwd: string | null;
  currentCwd: string | null;
  gitBranch: string | null;
  startedAt: number | null;
  endedAt: number | null;
  models: string[];
  /** The model in force now; a new turn starts with it. */
  currentModel: string | null;
  parentSessionId: string | null;
  parentTurnKey: string | null;
  parentToolCallId: string | null;
  agentId: string | null;
  isSubagent: boolean;
  turns: BuilderTurn[];
  compactions: Session['compactions'];
  pendingCompaction: boolean;
  /** callId → [turn index, step index][] (one call can yield several steps, e.g. a patch). */
  calls: Record<string, [number, number][]>;
}

export function initialBuilder(runner: Runner): BuilderState {
  return {
    runner,
    sessionId: null,
    title: '',
    titleIsExplicit: false,
    cwd: null,
    currentCwd: null,
    gitBranch: null,
    startedAt: null,
    endedAt: null,
    models: [],
    currentModel: null,
    parentSessionId: null,
    parentTurnKey: null,
    parentToolCallId: null,
    agentId: null,
    isSubagent: false,
    turns: [],
    compactions: [],
    pendingCompaction: false,
    calls: {},
  };
}

/** ISO string or epoch milliseconds → epoch milliseconds; anything else → null. */
export function toMillis(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? Math.round(value * 1000) : value;
  if (typeof value === 'string' && value.length > 0) {
    const fast = isoUtcMillis(value);
    if (fast !== null) return fast;
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/**
 * `Date.parse` for the one form every runner writes, `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC, milliseconds), without
 * the general parser (a timestamp per record). Anything else, or an out-of-range field, returns null so the
 * caller falls back to `Date.parse`, which stays the reference.
 */
function isoUtcMillis(value: string): number | null {
  if (
    value.length !== 24 ||
    value.charCodeAt(23) !== 0x5a ||
    value.charCodeAt(4) !== 0x2d ||
    value.charCodeAt(7) !== 0x2d ||
    value.charCodeAt(10) !== 0x54 ||
    value.charCodeAt(13) !== 0x3a ||
    value.charCodeAt(16) !== 0x3a ||
    value.charCodeAt(19) !== 0x2e
  ) {
    return null;
  }
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  const millisecond = digits(value, 20, 3);
  if (
    year < 1970 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 28 ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    millisecond < 0
  )
    return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
}

/** The decimal value of `length` ASCII digits at `start`, or -1 when one is not a digit. */
function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let index = start; index < start + length; index += 1) {
    const code = text.charCodeAt(index) - 0x30;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function addUnique(target: string[], values: readonly string[]): void {
  for (const value of values) if (!target.includes(value)) target.push(value);
}

function noteReferences(turn: BuilderTurn, text: string): void {
  const found = findReferences(text);
  addUnique(turn.urls, found.urls);
  addUnique(turn.arxivIds, found.arxivIds);
  addUnique(turn.dois, found.dois);
}

export function noteTime(state: BuilderState, at: number | null): void {
  if (at === null) return;
  if (state.startedAt === null || at < state.startedAt) state.startedAt = at;
  if (state.endedAt === null || at > state.endedAt) state.endedAt = at;
  const turn = state.turns[state.turns.length - 1];
  if (turn !== undefined) {
    if (turn.startedAt === null) turn.startedAt = at;
    if (turn.endedAt === null || at > turn.endedAt) turn.endedAt = at;
  }
}

/** Record a model; `applyToCurrentTurn` false only sets the model the next turn starts with. */
export function noteModel(state: BuilderState, model: unknown, applyToCurrentTurn = true): void {
  if (typeof model !== 'string' || model.length === 0 || model === '<synthetic>') return;
  addUnique(state.models, [model]);
  state.currentModel = model;
  const turn = state.turns[state.turns.length - 1];
  if (turn !== undefined && applyToCurrentTurn) turn.model = model;
}

export function noteCwd(state: BuilderState, cwd: unknown): void {
  if (typeof cwd !== 'string' || cwd.length === 0) return;
  if (state.cwd === null) state.cwd = cwd;
  state.currentCwd = cwd;
  // A turn opened before any cwd was known (Codex writes turn_context after task_started) takes the first one.
  const turn = state.turns[state.turns.length - 1];
  if (turn !== undefined && turn.cwd === null) turn.cwd = cwd;
}

/** Mark the current turn's ending (an interrupt marker the runner wrote as a user message). */
export function markStatus(state: BuilderState, status: TurnStatus): void {
  const turn = state.turns[state.turns.length - 1];
  if (turn !== undefined) turn.status = status;
}

export function noteBranch(state: BuilderState, branch: unknown): void {
  if (typeof branch === 'string' && branch.length > 0) state.gitBranch = branch;
}

export function setTitle(state: BuilderState, title: string, explicit: boolean): void {
  // A guessed title never replaces one already set: skip collapsing the whitespace of every prompt.
  if (!explicit && (state.titleIsExplicit || state.title !== '')) return;
  const clean = title.replace(/\s+/g, ' ').trim();
  if (clean === '') return;
  if (explicit) {
    state.title = clip(clean, 200);
    state.titleIsExplicit = true;
  } else if (!state.titleIsExplicit && state.title === '') {
    state.title = clip(clean, 120);
  }
}

/** Open a new turn at a human prompt. */
export function openTurn(state: BuilderState, recordId: string, userText: string, at: number | null): void {
  state.turns.push({
    openingRecordId: recordId,
    userText: clip(userText, MAX_TURN_TEXT),
    assistantText: '',
    steps: [],
    urls: [],
    arxivIds: [],
    dois: [],
    model: state.currentModel,
    startedAt: at,
    endedAt: at,
    afterCompaction: state.pendingCompaction,
    subagentSessionIds: [],
    cwd: state.currentCwd,
    status: null,
  });
  state.pendingCompaction = false;
  noteReferences(state.turns[state.turns.length - 1]!, userText);
  setTitle(state, userText, false);
  noteTime(state, at);
}

/** Give the current turn (opened without text, e.g. by Codex task_started) its prompt. */
export function fillPrompt(state: BuilderState, text: string): void {
  const turn = state.turns[state.turns.length - 1];
  if (turn === undefined) return;
  turn.userText = clip(text, MAX_TURN_TEXT);
  noteReferences(turn, text);
  setTitle(state, text, false);
}

/** The current turn; activity before any prompt opens an implicit turn keyed by that record. */
function currentTurn(state: BuilderState, recordId: string, at: number | null): BuilderTurn {
  if (state.turns.length === 0) openTurn(state, recordId, '', at);
  return state.turns[state.turns.length - 1]!;
}

function appendText(existing: string, text: string): string {
  if (existing.length >= MAX_TURN_TEXT) return existing;
  return clip(existing === '' ? text : `${existing}\n\n${text}`, MAX_TURN_TEXT);
}

export function addUserText(state: BuilderState, recordId: string, text: string, at: number | null): void {
  if (text.trim() === '') return;
  const turn = currentTurn(state, recordId, at);
  turn.userText = appendText(turn.userText, text);
  noteReferences(turn, text);
}

export function addAssistantText(state: BuilderState, recordId: string, text: string, at: number | null): void {
  if (text.trim() === '') return;
  const turn = currentTurn(state, recordId, at);
  turn.assistantText = appendText(turn.assistantText, text);
  noteReferences(turn, text);
  noteTime(state, at);
}

export interface StepInput {
  callId: string | null;
  name: string;
  inputSummary: string;
  op: ToolOp;
  files: string[];
  /** Text to scan for URLs / arXiv ids / DOIs (e.g. the full input). */
  referenceText: string;
}

export function addStep(state: BuilderState, recordId: string, step: StepInput, at: number | null): void {
  const turn = currentTurn(state, recordId, at);
  const full: ToolStep = {
    callId: step.callId,
    name: step.name,
    inputSummary: clip(step.inputSummary, MAX_INPUT_SUMMARY),
    op: step.op,
    files: step.files,
    resultSummary: '',
    isError: false,
    at,
  };
  turn.steps.push(full);
  noteReferences(turn, step.referenceText);
  noteTime(state, at);
  if (step.callId !== null) {
    const list = getOwn(state.calls, step.callId) ?? [];
    list.push([state.turns.length - 1, turn.steps.length - 1]);
    setOwn(state.calls, step.callId, list);
  }
}

/** Attach a result to every step of a call. Returns false when the call is unknown. */
export function attachResult(
  state: BuilderState,
  callId: string,
  text: string,
  isError: boolean,
  at: number | null,
): boolean {
  const targets = getOwn(state.calls, callId);
  if (targets === undefined) return false;
  for (const [turnIndex, stepIndex] of targets) {
    const step = state.turns[turnIndex]?.steps[stepIndex];
    if (step === undefined) continue;
    step.resultSummary = clip(text.trim(), MAX_RESULT_SUMMARY);
    step.isError = step.isError || isError;
  }
  noteTime(state, at);
  return true;
}

/** The turn index holding a call, or null. */
export function turnOfCall(state: BuilderState, callId: string): number | null {
  const targets = getOwn(state.calls, callId);
  return targets === undefined || targets.length === 0 ? null : targets[0]![0];
}

export function linkSubagentToCall(state: BuilderState, callId: string, subagentSessionId: string): boolean {
  const index = turnOfCall(state, callId);
  if (index === null) return false;
  addUnique(state.turns[index]!.subagentSessionIds, [subagentSessionId]);
  return true;
}

export function markCompaction(state: BuilderState, at: number | null, summary: string): void {
  state.compactions.push({ beforeTurnNumber: state.turns.length + 1, at, summary: clip(summary, MAX_TURN_TEXT) });
  state.pendingCompaction = true;
}

export function turnKey(runner: Runner, sessionId: string, openingRecordId: string): string {
  return `${runner}:${sessionId}#${openingRecordId}`;
}

export function buildSession(state: BuilderState, sourcePath: string, fallbackId: string): AtlasSession {
  const sessionId = state.sessionId ?? fallbackId;
  return {
    runner: state.runner,
    sessionId,
    sourcePath,
    title: state.title,
    cwd: state.cwd,
    gitBranch: state.gitBranch,
    startedAt: state.startedAt,
    endedAt: state.endedAt,
    models: [...state.models],
    parentSessionId: state.parentSessionId,
    parentTurnKey: state.parentTurnKey,
    isSubagent: state.isSubagent,
    turns: state.turns.map((turn, index) => {
      const { followsOpeningId, ...rest } = turn;
      const built: AtlasTurn = {
        ...rest,
        cwd: rest.cwd ?? state.cwd,
        key: turnKey(state.runner, sessionId, turn.openingRecordId),
        number: index + 1,
      };
      if (followsOpeningId !== undefined)
        built.followsTurnKey = followsOpeningId === null ? null : turnKey(state.runner, sessionId, followsOpeningId);
      return built;
    }),
    compactions: state.compactions.map((entry) => ({ ...entry })),
    agentId: state.agentId,
    parentToolCallId: state.parentToolCallId,
  };
}
