import type { CanvasNode, EventRecord, Wire } from '../../../protocol/index.ts';
import { diffRecords } from './record-diff.ts';

/**
 * A canvas's nodes, wires and events are stored as packs: a few hundred records as one JSON text row, not one row
 * per record. IndexedDB's cost on reading is per row (a 10,000-node canvas in ~50,000 rows read in ~2 s; the same
 * records in ~300 rows read and parsed in ~0.3 s), so the cached first paint depends on the row count. A change still
 * writes only the packs holding the records it touched (an edit: one node pack and the last event pack).
 */
export type PackKind = 'nodes' | 'wires' | 'events';

export interface PackRow {
  canvasId: string;
  kind: PackKind;
  bucket: number;
  /** The pack's records, a JSON array (events in log order). */
  json: string;
}

/** Nodes and wires go to one of this many packs by a hash of their id (a 10,000-node pack holds ~80 nodes). */
export const KEYED_PACKS = 128;
/** Events go to packs by their place in the log: appending touches only the last pack. */
export const EVENTS_PER_PACK = 500;

/** FNV-1a of the id, so a record stays in its pack for as long as it lives. */
export function packOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % KEYED_PACKS;
}

export interface PackChanges {
  put: PackRow[];
  /** Buckets of this kind that no longer hold any record. */
  remove: number[];
}

function keyedPacks(
  canvasId: string,
  kind: 'nodes' | 'wires',
  records: Iterable<{ id: string }>,
  only: ReadonlySet<number> | null,
): PackRow[] {
  const wanted = only ? [...records].filter((record) => only.has(packOf(record.id))) : records;
  return grouped(canvasId, kind, wanted).map(packRow);
}

/** The node or wire packs to write for a change from `previous` (null: everything) to `next`. */
export function changedKeyedPacks<T extends { id: string }>(
  canvasId: string,
  kind: 'nodes' | 'wires',
  previous: Iterable<T> | null,
  next: Iterable<T>,
): PackChanges {
  if (previous === null) return { put: keyedPacks(canvasId, kind, next, null), remove: [] };
  const diff = diffRecords(previous, next, (record) => record.id);
  const touched = new Set([...diff.put.map(({ key }) => packOf(key)), ...diff.remove.map(packOf)]);
  if (touched.size === 0) return { put: [], remove: [] };
  const put = keyedPacks(canvasId, kind, next, touched);
  const kept = new Set(put.map((row) => row.bucket));
  return { put, remove: [...touched].filter((bucket) => !kept.has(bucket)) };
}

/** The event packs to write: each whose stretch of the log holds a different record (by identity) than before. */
export function changedEventPacks(
  canvasId: string,
  previous: readonly EventRecord[] | null,
  next: readonly EventRecord[],
): PackChanges {
  const put: PackRow[] = [];
  const packs = Math.ceil(next.length / EVENTS_PER_PACK);
  for (let bucket = 0; bucket < packs; bucket += 1) {
    const start = bucket * EVENTS_PER_PACK;
    const end = start + EVENTS_PER_PACK;
    // A pack holds a different stretch when either log ends inside it at another place (longer or cut back).
    let changed = previous === null || Math.min(previous.length, end) !== Math.min(next.length, end);
    for (let index = start; !changed && index < Math.min(end, next.length); index += 1)
      changed = previous![index] !== next[index];
    if (changed) put.push({ canvasId, kind: 'events', bucket, json: JSON.stringify(next.slice(start, end)) });
  }
  const before = previous ? Math.ceil(previous.length / EVENTS_PER_PACK) : 0;
  const remove: number[] = [];
  for (let bucket = packs; bucket < before; bucket += 1) remove.push(bucket);
  return { put, remove };
}

/** A pack not yet turned into text: a cache fill stringifies a few at a time, between turns given to the page. */
export type PackSource = Omit<PackRow, 'json'> & { records: readonly unknown[] };

function grouped(canvasId: string, kind: 'nodes' | 'wires', records: Iterable<{ id: string }>): PackSource[] {
  const groups = new Map<number, { id: string }[]>();
  for (const record of records) {
    const bucket = packOf(record.id);
    const group = groups.get(bucket);
    if (group) group.push(record);
    else groups.set(bucket, [record]);
  }
  return [...groups].map(([bucket, group]) => ({ canvasId, kind, bucket, records: group }));
}

/** Every pack of a canvas (a cache fill, the schema upgrade): nodes and wires by id, events in log order. */
export function packSources(
  canvasId: string,
  records: { nodes: Iterable<CanvasNode>; wires: Iterable<Wire>; events: readonly EventRecord[] },
): PackSource[] {
  const events: PackSource[] = [];
  for (let start = 0; start < records.events.length; start += EVENTS_PER_PACK)
    events.push({
      canvasId,
      kind: 'events',
      bucket: start / EVENTS_PER_PACK,
      records: records.events.slice(start, start + EVENTS_PER_PACK),
    });
  return [...grouped(canvasId, 'nodes', records.nodes), ...grouped(canvasId, 'wires', records.wires), ...events];
}

export function packRow({ records, ...place }: PackSource): PackRow {
  return { ...place, json: JSON.stringify(records) };
}

/** The records the packs of one canvas hold; events in log order. */
export function unpack(rows: readonly PackRow[]): { nodes: CanvasNode[]; wires: Wire[]; events: EventRecord[] } {
  const nodes: CanvasNode[] = [];
  const wires: Wire[] = [];
  const eventPacks: PackRow[] = [];
  for (const row of rows) {
    if (row.kind === 'events') eventPacks.push(row);
    else if (row.kind === 'nodes') for (const node of JSON.parse(row.json) as CanvasNode[]) nodes.push(node);
    else for (const wire of JSON.parse(row.json) as Wire[]) wires.push(wire);
  }
  eventPacks.sort((left, right) => left.bucket - right.bucket);
  const events = eventPacks.flatMap((row) => JSON.parse(row.json) as EventRecord[]);
  return { nodes, wires, events };
}
