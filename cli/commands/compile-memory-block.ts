import { randomUUID } from 'node:crypto';
import { MemoryStore, memoryDirectory } from '../../runtime/memory/index.ts';
import type { MemoryReading } from '../../protocol/index.ts';
import { memoryBlock } from '../../src/core/memory/index.ts';

export interface CompileMemory {
  /** The [Memory] block an ordinary ask on the canvas carries, or null. */
  block: string | null;
  /** Why it is (or is not) sent, for the printed output. */
  reason: string;
}

/**
 * The block the app inserts into an ask of `canvasId`: the profile under $WEFT_HOME/memory and the per-canvas
 * switch from memory's journal, read the way the server's `GET /memory` reads them (the app builds the block
 * from that response with the same core `memoryBlock`, so the hashes agree), read as the node reads it (#29:
 * inferred lines behind its switch, its "as of" date).
 */
export async function memoryBlockFor(
  home: string,
  canvasId: string,
  reading: Partial<MemoryReading> = {},
): Promise<CompileMemory> {
  const store = new MemoryStore({ directory: memoryDirectory(home), now: Date.now, newId: randomUUID });
  const stored = await store.read();
  if (stored.journal.offCanvases.includes(canvasId)) return { block: null, reason: 'off for this canvas' };
  const block = memoryBlock(stored.profile, reading);
  return block === null ? { block, reason: 'the profile is empty' } : { block, reason: 'from the profile' };
}
