import { wordDiff } from '../../core/index.ts';

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
  for (const part of wordDiff(older, newer)) {
    if (part.change === 'removed') {
      result.left.push(part);
      result.removedWords += words(part.text);
    } else if (part.change === 'added') {
      result.right.push(part);
      result.addedWords += words(part.text);
    } else {
      result.left.push(part);
      result.right.push(part);
    }
  }
  return result;
}
