import type { Position } from '../changes.ts';

/** Layout of a mirrored session: turns in one column, subagent runs in columns to its right. */
export const MIRROR_ROW_GAP = 240;
export const MIRROR_BRANCH_GAP = 380;
/** Compaction notes sit in the column too, a shorter step than a turn. */
export const MIRROR_NOTE_GAP = 140;

export function below(position: Position, gap: number): Position {
  return { x: position.x, y: position.y + gap };
}

export function beside(position: Position, columns: number): Position {
  return { x: position.x + MIRROR_BRANCH_GAP * columns, y: position.y };
}
