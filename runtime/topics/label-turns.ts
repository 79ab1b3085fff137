import type { LabelTurn } from '../../protocol/index.ts';
import { isLive, isPutAside, nodeContent, type PutAsides } from '../../src/core/index.ts';
import { canvasLabelKey, LABEL_OPENING_CHARS, turnOpening } from '../../src/core/topics/index.ts';
import type { CanvasStore } from '../fs/index.ts';
import type { IndexDatabase } from '../index/index.ts';

/** A run labels at most this many turns (newest first), so its preview stays readable and its price bounded. */
export const MAX_LABEL_TURNS = 2000;

/**
 * Agent-session turns from the why index, keyed by the index's stable turn keys. Canvas rows and canvas copies
 * of session turns are left out: live canvas turns come from the canvas records themselves (`canvasTurns`).
 * Only each turn's opening is sent; a turn whose words are put aside (`isPutAside`) is not offered.
 */
export function sessionTurns(
  database: IndexDatabase,
  limit = MAX_LABEL_TURNS,
  putAsides: PutAsides = new Set(),
): LabelTurn[] {
  const rows = database
    .prepare(
      `SELECT t.turn_key AS turnKey, s.title AS title, substr(t.user_text, 1, ?) AS question,
         substr(t.assistant_text, 1, ?) AS answer, t.user_text AS words
       FROM turns t JOIN sessions s ON s.id = t.session_row
       WHERE s.runner <> 'canvas' AND t.mirrors IS NULL
       ORDER BY t.at DESC, t.id DESC LIMIT ?`,
    )
    .all(LABEL_OPENING_CHARS, LABEL_OPENING_CHARS, limit) as {
    turnKey: string;
    title: string;
    question: string;
    answer: string;
    words: string;
  }[];
  return rows
    .filter((row) => !isPutAside(putAsides, 'session-turn', row.words))
    .map((row) => ({
      turnKey: row.turnKey,
      source: 'session' as const,
      title: row.title,
      opening: turnOpening(row.question, row.answer),
    }))
    .filter((turn) => turn.opening !== '');
}

/**
 * Live canvas turns: each question node that is not archived, at its current version, keyed by canvas, node and
 * version id, so archiving or deleting another node changes no turn's key. A node whose content is put aside is not
 * offered.
 */
export async function canvasTurns(canvases: CanvasStore, putAsides: PutAsides = new Set()): Promise<LabelTurn[]> {
  const { canvases: summaries } = await canvases.list();
  const turns: LabelTurn[] = [];
  for (const summary of summaries) {
    const { document } = await canvases.read(summary.id).catch(() => ({ document: null }));
    if (!document) continue;
    for (const node of document.nodes) {
      if (!isLive(node) || node.kind !== 'question') continue;
      const content = nodeContent(node);
      if (content && isPutAside(putAsides, content.kind, content.text)) continue;
      const version = node.versions.find((candidate) => candidate.id === node.currentVersionId);
      if (!version) continue;
      const opening = turnOpening(node.question, version.text);
      if (opening === '') continue;
      turns.push({
        turnKey: canvasLabelKey(document.canvas.id, node.id, version.id),
        source: 'canvas',
        title: document.canvas.name,
        opening,
      });
    }
  }
  return turns;
}
