import type { MemoryReading, QuestionNode } from '../../../protocol/index.ts';
import { DEFAULT_MEMORY_READING } from '../../../protocol/index.ts';

/**
 * #29: how `node`'s asks read memory: its saved `memoryReading`, or the defaults (no inferred items, lines valid
 * now) for a node without one. The app's preview and run and `weft compile` all read it here.
 */
export function memoryReadingOf(node: Pick<QuestionNode, 'memoryReading'> | null | undefined): MemoryReading {
  return node?.memoryReading ?? DEFAULT_MEMORY_READING;
}
