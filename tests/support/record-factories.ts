import type { CanvasNode, EventRecord } from '../../protocol/index.ts';

/** A plain note record, for tests that store and read records rather than build a canvas. */
export const noteRecord = (id: string, createdAt: number): CanvasNode => ({
  id,
  kind: 'note',
  createdAt,
  position: { x: createdAt, y: 0 },
  size: null,
  archived: false,
  archivedAt: null,
  excludedParts: [],
  text: `Note ${id}`,
});

/** An event record with fixed hashes: storage tests move it around, they never verify the chain. */
export const eventRecord = (id: string, at = 1): EventRecord => ({
  id,
  at,
  op: 'add',
  objectId: 'n0',
  meta: {},
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
});
