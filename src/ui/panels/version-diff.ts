import { diffWords } from 'diff';

export interface DiffPiece {
  text: string;
  change: 'same' | 'removed' | 'added';
}

export interface SideBySide {
  /** The older text, with what the newer one dropped marked `removed`. */
  left: DiffPiece[];
  /** The newer text, with what it added marked `added`. */
  right: DiffPiece[];
  removedWords: number;
  addedWords: number;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Word-level diff of two answers, split into the two columns of a side-by-side view. */
export function sideBySide(older: string, newer: string): SideBySide {
  const result: SideBySide = { left: [], right: [], removedWords: 0, addedWords: 0 };
  for (const part of diffWords(older, newer)) {
    if (part.removed) {
      result.left.push({ text: part.value, change: 'removed' });
      result.removedWords += words(part.value);
    } else if (part.added) {
      result.right.push({ text: part.value, change: 'added' });
      result.addedWords += words(part.value);
    } else {
      result.left.push({ text: part.value, change: 'same' });
      result.right.push({ text: part.value, change: 'same' });
    }
  }
  return result;
}
