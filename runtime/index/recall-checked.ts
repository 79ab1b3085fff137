import { IndexError } from './index-error.ts';
import { canvasTurnKey } from './index-canvas.ts';
import { canvasVersionNow } from './put-aside-turns.ts';
import type { RecalledTurn, RecallRequest } from './recall-query.ts';
import { canvasKeyParts } from './turn-key-sources.ts';

/**
 * What `recall` asks its engine for: a versioned canvas key (`canvas:c#n@v`, what topic labels and dossiers cite)
 * is read as its node's row, then answered with that version (`checkRecalled`).
 */
export function recallLookupRequest(request: RecallRequest): { request: RecallRequest; cited: string | null } {
  const parts = 'turnKey' in request ? canvasKeyParts(request.turnKey) : null;
  if (parts?.versionId === undefined || !('turnKey' in request)) return { request, cited: null };
  return { request: { turnKey: canvasTurnKey(parts.canvasId, parts.nodeId) }, cited: request.turnKey };
}

/**
 * The one set of refusals both engines' `recall` make on the row they read: a put-aside turn, a canvas turn whose
 * node is archived or deleted now, a cited version the canvas no longer keeps; a cited version answers with its own
 * question and answer, read from the canvas record.
 */
export function checkRecalled<Turn extends RecalledTurn>(
  turn: Turn,
  cited: string | null,
  checks: { putAside(key: string): boolean; gone(key: string): boolean },
  canvasesDirectory: string,
): Turn {
  const key = cited ?? turn.turnKey;
  if (checks.putAside(key))
    throw new IndexError('turn-not-found', `turn ${key} is put aside (archived or deleted content)`);
  if (checks.gone(key)) throw new IndexError('turn-not-found', `turn ${key} is archived or deleted on its canvas`);
  if (!cited) return turn;
  const version = canvasVersionNow(canvasesDirectory, key);
  if (!version) throw new IndexError('turn-not-found', `turn ${key}: its canvas no longer keeps that version`);
  const { question, text, createdAt, model } = version;
  return { ...turn, turnKey: key, question, answer: text, at: createdAt, model };
}
