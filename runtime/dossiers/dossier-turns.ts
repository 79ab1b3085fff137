import type { CanvasDocument, KnownAs } from '../../protocol/index.ts';
import { redactCredentials } from '../../src/core/recall/index.ts';
import type { DossierTurn } from '../../src/core/dossiers/index.ts';
import type { PutAsides } from '../../src/core/index.ts';
import type { CanvasStore } from '../fs/index.ts';
import { canvasKeyParts as anyCanvasKeyParts, turnKeySources, type IndexDatabase } from '../index/index.ts';

/** `canvas:<canvas>#<node>@<version>` → its parts; null for an agent-session key. A dossier cites a version. */
export function canvasKeyParts(turnKey: string): { canvasId: string; nodeId: string; versionId: string } | null {
  const parts = anyCanvasKeyParts(turnKey);
  return parts?.versionId === undefined ? null : { ...parts, versionId: parts.versionId };
}

export interface TurnSources {
  /** The why index; null when there is none (then no session turn is found, and none is live). */
  database: IndexDatabase | null;
  canvases: Pick<CanvasStore, 'read'>;
  /** The tombstones in force (issue 29.2): a turn whose content is put aside is not found; absent: none. */
  putAsides?: PutAsides;
}

interface FoundTurn extends DossierTurn {
  at: number;
}

function present(documents: Map<string, CanvasDocument | null>): CanvasDocument[] {
  return [...documents.values()].filter((document): document is CanvasDocument => document !== null);
}

async function canvasDocuments(keys: readonly string[], canvases: TurnSources['canvases']) {
  const ids = new Set(keys.map((key) => canvasKeyParts(key)?.canvasId).filter((id): id is string => id !== undefined));
  const documents = new Map<string, CanvasDocument | null>();
  for (const id of ids) documents.set(id, (await canvases.read(id).catch(() => null))?.document ?? null);
  return documents;
}

/** The cited version of a canvas turn `turnKeySources` found live (so its node is a live question keeping it). */
function canvasTurn(document: CanvasDocument | null | undefined, turnKey: string): FoundTurn | null {
  const parts = canvasKeyParts(turnKey);
  const node = document?.nodes.find((candidate) => candidate.id === parts?.nodeId);
  if (!document || node?.kind !== 'question') return null;
  const version = node.versions.find((candidate) => candidate.id === parts!.versionId);
  if (!version) return null;
  return {
    turnKey,
    source: 'canvas',
    title: document.canvas.name,
    question: version.question,
    answer: version.text,
    at: version.createdAt,
  };
}

function sessionRows(database: IndexDatabase | null, keys: readonly string[]): Map<string, FoundTurn> {
  const found = new Map<string, FoundTurn>();
  if (!database || keys.length === 0) return found;
  const select = database.prepare(
    `SELECT t.turn_key AS turnKey, s.title AS title, t.user_text AS question, t.assistant_text AS answer, t.at AS at
     FROM turns t JOIN sessions s ON s.id = t.session_row WHERE t.turn_key = ?`,
  );
  for (const key of keys) {
    const row = select.get(key) as Omit<FoundTurn, 'source'> | undefined;
    if (row) found.set(key, { ...row, source: 'session', at: row.at ?? 0 });
  }
  return found;
}

/**
 * The turns behind the given keys that still exist, newest first: session turns from the why index (their full
 * words), canvas turns from the canvas records (the version's question and answer; an archived or deleted node,
 * or a version no longer kept, is not found).
 */
export async function readDossierTurns(keys: readonly string[], sources: TurnSources): Promise<DossierTurn[]> {
  const sessionKeys = keys.filter((key) => canvasKeyParts(key) === null);
  const canvasKeys = keys.filter((key) => canvasKeyParts(key) !== null);
  const sessions = sessionRows(sources.database, sessionKeys);
  const documents = await canvasDocuments(canvasKeys, sources.canvases);
  // Whether a cited canvas turn is still alive is `turnKeySources`' answer, the one recall and liveTurnKeys use.
  const { gone } = turnKeySources(sources.database, present(documents), sources.putAsides);
  const turns: FoundTurn[] = [...sessions.values()].filter((turn) => !gone(turn.turnKey));
  for (const key of canvasKeys) {
    if (gone(key)) continue;
    const turn = canvasTurn(documents.get(canvasKeyParts(key)!.canvasId), key);
    if (turn) turns.push(turn);
  }
  turns.sort((left, right) => right.at - left.at || left.turnKey.localeCompare(right.turnKey));
  // What a dossier run sends: credential-like strings in a turn's words never leave the machine.
  return turns.map(({ at: _at, ...turn }) => ({
    ...turn,
    question: redactCredentials(turn.question).text,
    answer: redactCredentials(turn.answer).text,
  }));
}

/**
 * Which of the keys still name a live turn: what `liveSentences` is given (C15). The same lookup recall uses
 * (`turnKeySources`), so the dossier view and recall agree on which sentences have lost their sources.
 */
export async function liveTurnKeys(keys: readonly string[], sources: TurnSources): Promise<Set<string>> {
  const documents = present(await canvasDocuments(keys, sources.canvases));
  const { gone } = turnKeySources(sources.database, documents, sources.putAsides);
  return new Set(keys.filter((key) => !gone(key)));
}

/**
 * #29: how each cited turn is known, for the ones not read as written (a session turn the runner marked
 * interrupted is `reconstructed`); a key left out is `observed`. The same lookup recall marks its citations with.
 * A key in `extracted` (the turn of a judge-extracted fact the dossier consumed) is `inferred` whatever its turn:
 * a citation is only as known as what it may rest on, and the model was shown the judge's words under that key.
 */
export async function citedKnownAs(
  keys: readonly string[],
  sources: TurnSources,
  extracted: ReadonlySet<string> = new Set(),
): Promise<Record<string, KnownAs>> {
  const documents = present(await canvasDocuments(keys, sources.canvases));
  const { knownAs } = turnKeySources(sources.database, documents, sources.putAsides);
  const known: Record<string, KnownAs> = {};
  for (const key of keys) {
    const how = extracted.has(key) ? 'inferred' : knownAs(key);
    if (how !== 'observed') known[key] = how;
  }
  return known;
}
