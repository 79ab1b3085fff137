import type { UpstreamBase, UpstreamPart, UpstreamRecord } from './canvas-document.ts';

/**
 * The record of `current` as a difference from `baseParts` (the full parts its base version recorded): the parts
 * that are new or differ, and the base's node ids that are no longer upstream. Folding it onto the base
 * (`foldUpstream`) gives back exactly `current`'s parts.
 */
export function upstreamDelta(
  base: UpstreamBase | null,
  baseParts: readonly UpstreamPart[],
  current: readonly UpstreamPart[],
): UpstreamRecord {
  const before = new Map(baseParts.map((part) => [part.nodeId, part]));
  const after = new Set(current.map((part) => part.nodeId));
  const parts = current.filter((part) => {
    const old = before.get(part.nodeId);
    return !old || old.hash !== part.hash || old.opening !== part.opening;
  });
  const removed = baseParts.filter((part) => !after.has(part.nodeId)).map((part) => part.nodeId);
  return { base, parts: parts.map((part) => ({ ...part })), removed };
}

/**
 * The full parts of the last record of `chain`, ordered root base first: each record drops its `removed` ids,
 * replaces changed parts where they stood and appends new ones.
 */
export function foldUpstream(chain: readonly Pick<UpstreamRecord, 'parts' | 'removed'>[]): UpstreamPart[] {
  const parts = new Map<string, UpstreamPart>();
  for (const record of chain) {
    for (const nodeId of record.removed) parts.delete(nodeId);
    for (const part of record.parts) parts.set(part.nodeId, part);
  }
  return [...parts.values()];
}

/** How much a record stores: what choosing a base tries to keep small. */
export function upstreamRecordSize(record: Pick<UpstreamRecord, 'parts' | 'removed'>): number {
  return record.parts.length + record.removed.length;
}
