import { getOwn, setOwn } from './own-record.ts';
import { buildSession, initialBuilder, turnKey, type AtlasSession, type BuilderState } from './session-builder.ts';
import { asString } from './tool-steps.ts';

/**
 * Claude Code continued/resumed sessions: in builds that copy history, a continued session's file starts with
 * records copied from the session it continues (their `sessionId` is the old one's). Those are built apart,
 * never as turns of the file's own session, which is linked to the session they came from instead.
 */
export interface CopyTracking {
  main: BuilderState;
  /** The file's own session id: its name when that is a session UUID, else the first id a record carries. */
  ownId: string | null;
  /** Records of other sessions before the file's own first record, by `sessionId`: never turns of this session. */
  copies: Record<string, BuilderState>;
  copiedRecords: Record<string, number>;
  ownRecords: number;
}

/**
 * The builder of a main-file record: the file's own session, or (for a record carrying another session's
 * id, as the copied history at the top of a continued session does) that session's copy builder.
 */
export function mainOrCopy(state: CopyTracking, record: Record<string, unknown>): BuilderState {
  const recordSession = asString(record['sessionId']);
  if (recordSession === '') return state.main;
  if (state.ownId === null) state.ownId = recordSession;
  if (recordSession === state.ownId) {
    state.ownRecords += 1;
    return state.main;
  }
  // Copies come first; once the file's own records began, another id is the writer's, not a copy.
  if (state.ownRecords > 0) return state.main;
  setOwn(state.copiedRecords, recordSession, (getOwn(state.copiedRecords, recordSession) ?? 0) + 1);
  let copy = getOwn(state.copies, recordSession);
  if (copy === undefined) {
    copy = initialBuilder('claude-code');
    copy.sessionId = recordSession;
    setOwn(state.copies, recordSession, copy);
  }
  return copy;
}

/** A state saved before copies were told apart resumes with the id its first record gave it. */
export function upgradeCopyTracking(state: CopyTracking): void {
  if (state.copies !== undefined) return;
  state.ownId = state.main.sessionId;
  state.copies = {};
  state.copiedRecords = {};
  state.ownRecords = state.main.turns.length;
}

/**
 * The builder of the file's own session. A file named after a session whose records all carry one other id
 * (renamed, or copied without new records) is that session's, not a copy.
 */
export function ownSession(state: CopyTracking): BuilderState {
  const copies = Object.keys(state.copies);
  if (state.ownRecords > 0 || copies.length !== 1 || state.main.turns.length > 0) return state.main;
  return state.copies[copies[0]!]!;
}

/** The own session, linked to the session its copied records came from (the last one copied, if several). */
export function buildOwn(state: CopyTracking, own: BuilderState, sourcePath: string, fallback: string): AtlasSession {
  if (own !== state.main) return buildSession(own, sourcePath, fallback);
  // Only copies carried a session id: the file is still its own session, named by its file.
  const named =
    state.main.sessionId === null && state.ownId !== null ? { ...state.main, sessionId: state.ownId } : state.main;
  return { ...buildSession(named, sourcePath, fallback), ...copyLink(state) };
}

function copyLink(state: CopyTracking): Partial<AtlasSession> {
  const ids = Object.keys(state.copies);
  if (ids.length === 0) return {};
  const from = ids[ids.length - 1]!;
  const copy = state.copies[from]!;
  const last = copy.turns[copy.turns.length - 1];
  const copied = Object.values(state.copiedRecords).reduce((total, count) => total + count, 0);
  return {
    continuesSessionId: from,
    copiedRecords: copied,
    parentSessionId: state.main.parentSessionId ?? from,
    parentTurnKey:
      state.main.parentTurnKey ?? (last === undefined ? null : turnKey('claude-code', from, last.openingRecordId)),
  };
}
