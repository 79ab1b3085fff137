import { z } from 'zod';
import {
  CanvasRecordsSchema,
  type CanvasDocument,
  type CanvasNode,
  type Version,
  type Wire,
} from './canvas-document.ts';

/**
 * The version-4 stored form of a canvas (`.weft.json`, the server's record, the streamed records). Each value that
 * another record of the same document already holds is stored once and referenced, and each default is left out:
 *
 * - node fields at their defaults (`size: null`, `archived: false`, `archivedAt: null`, `excludedParts: []`,
 *   `autoRerun` off for one round, `model: null`, `attachments: []`) and version fields (`requestHash: null`,
 *   `branchOf: null`, `upstream.removed: []`) are left out;
 * - a version's `question` is left out when it is its node's question, and a node's `currentVersionId` when it is
 *   its last version's id;
 * - an upstream part of the base's own node whose opening is the base version's (its question, a line break and
 *   its answer, cut at 240) is stored as its hash alone: the base version holds that text already;
 * - a solid wire is the tuple `[id, from, to, createdAt]`;
 * - events are tuples `[id, at − previous at, op, objectId, meta, hash]` (+ `prevHash` when it does not follow
 *   the event before, as in version 3); `meta` is `null` when the node (`add`) or wire (`wire`) named by
 *   `objectId` gives it, and `[versionId, selected]` when the version (`version`) gives the rest.
 *
 * Every rule applies only when expanding gives back exactly the value it replaced (checked when compacting), so
 * `expandStoredCanvas(compactCanvas(document))` parses to `document`. Expanding is idempotent: the full form (every
 * field present, events as objects) is also a valid version-4 record and passes through unchanged.
 */
export type StoredCanvasForm = Record<string, unknown>;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const OPENING_LENGTH = 240;

/** The opening an upstream part of `version`'s node has when it is that version's question and answer (C6). */
export function versionOpening(version: Pick<Version, 'question' | 'text'>): string {
  const cut = `${version.question}\n${version.text}`.slice(0, OPENING_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  // Never half a surrogate pair, as the compiler cuts openings (`sliceWhole`).
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The meta `add` and `wire` events carry, as the record named by their `objectId` gives it. */
function derivedMeta(op: string, node: Json | undefined, wire: Json | undefined): Json | undefined {
  if (op === 'add' && node) return { kind: node.kind };
  if (op === 'wire' && wire) {
    const meta: Json = {
      from: wire.from,
      to: wire.to,
      kind: wire.kind,
      depth: wire.kind === 'dashed' ? wire.depth : null,
    };
    if (wire.kind === 'dashed' && wire.mention === true) meta.mention = true;
    return meta;
  }
  return undefined;
}

function versionMeta(version: Json, selected: unknown): Json {
  return {
    versionId: version.id,
    model: version.model,
    origin: version.origin,
    status: version.status,
    requestHash: version.requestHash,
    selected,
  };
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

const NODE_DEFAULTS: readonly [string, () => unknown][] = [
  ['size', () => null],
  ['archived', () => false],
  ['archivedAt', () => null],
  ['excludedParts', () => []],
];
const QUESTION_DEFAULTS: readonly [string, () => unknown][] = [
  ['autoRerun', () => ({ enabled: false, rounds: 1 })],
  ['model', () => null],
  ['attachments', () => []],
];
const VERSION_DEFAULTS: readonly [string, () => unknown][] = [
  ['requestHash', () => null],
  ['branchOf', () => null],
];

function withoutDefaults(record: Json, defaults: readonly [string, () => unknown][]): Json {
  const result: Json = { ...record };
  for (const [key, value] of defaults) if (same(result[key], value())) delete result[key];
  return result;
}

function versionIndex(nodes: readonly unknown[]): Map<string, Map<string, Json>> {
  const index = new Map<string, Map<string, Json>>();
  for (const node of nodes) {
    if (!isObject(node) || typeof node.id !== 'string' || !Array.isArray(node.versions)) continue;
    const byId = new Map<string, Json>();
    for (const version of node.versions)
      if (isObject(version) && typeof version.id === 'string') byId.set(version.id, version);
    index.set(node.id, byId);
  }
  return index;
}

/** The stored form of a parsed document (see `StoredCanvasForm`). */
export function compactCanvas(document: CanvasDocument): StoredCanvasForm {
  const versions = versionIndex(document.nodes);
  const nodes = new Map<string, CanvasNode>(document.nodes.map((node) => [node.id, node]));
  const wires = new Map<string, Wire>(document.wires.map((wire) => [wire.id, wire]));
  const storedNodes = document.nodes.map((node) => {
    const stored = withoutDefaults(node, NODE_DEFAULTS);
    if (node.kind !== 'question') return stored;
    const question = withoutDefaults(stored, QUESTION_DEFAULTS);
    question.versions = node.versions.map((version) => {
      const { upstream, ...rest } = version;
      const result = withoutDefaults(rest, VERSION_DEFAULTS);
      if (version.question === node.question) delete result.question;
      const base = upstream.base;
      const baseVersion = base ? versions.get(base.nodeId)?.get(base.versionId) : undefined;
      const opening = baseVersion ? versionOpening(baseVersion as Version) : undefined;
      const parts = upstream.parts.map((part) =>
        base && part.nodeId === base.nodeId && part.opening === opening ? part.hash : part,
      );
      result.upstream = upstream.removed.length === 0 ? { base, parts } : { base, parts, removed: upstream.removed };
      return result;
    });
    if (node.versions.length > 0 && node.currentVersionId === node.versions.at(-1)!.id)
      delete question.currentVersionId;
    return question;
  });
  let previousAt = 0;
  let previousHash = '';
  const events = document.events.map((event) => {
    const delta = event.at - previousAt;
    previousAt = event.at;
    let meta: unknown = event.meta;
    if (same(derivedMeta(event.op, nodes.get(event.objectId), wires.get(event.objectId)), event.meta)) meta = null;
    else if (
      event.op === 'version' &&
      typeof event.meta.versionId === 'string' &&
      typeof event.meta.selected === 'boolean'
    ) {
      const version = versions.get(event.objectId)?.get(event.meta.versionId);
      if (version && same(versionMeta(version, event.meta.selected), event.meta))
        meta = [event.meta.versionId, event.meta.selected];
    }
    const tuple: unknown[] = [event.id, delta, event.op, event.objectId, meta, event.hash];
    if (event.prevHash !== previousHash) tuple.push(event.prevHash);
    previousHash = event.hash;
    return tuple;
  });
  const storedWires = document.wires.map((wire) =>
    wire.kind === 'solid' ? [wire.id, wire.from, wire.to, wire.createdAt] : wire,
  );
  return { ...document, nodes: storedNodes, wires: storedWires, events };
}

function withDefaults(record: Json, defaults: readonly [string, () => unknown][]): Json {
  let result = record;
  for (const [key, value] of defaults) {
    if (key in result) continue;
    if (result === record) result = { ...record };
    result[key] = value();
  }
  return result;
}

function expandVersion(version: unknown, node: Json): unknown {
  if (!isObject(version)) return version;
  let result = withDefaults(version, VERSION_DEFAULTS);
  if (!('question' in result) && typeof node.question === 'string') result = { ...result, question: node.question };
  const upstream = result.upstream;
  if (isObject(upstream) && !('removed' in upstream)) result = { ...result, upstream: { ...upstream, removed: [] } };
  return result;
}

function expandNode(node: unknown): unknown {
  if (!isObject(node)) return node;
  let result = withDefaults(node, NODE_DEFAULTS);
  if (result.kind !== 'question') return result;
  result = withDefaults(result, QUESTION_DEFAULTS);
  const stored: unknown = result.versions;
  if (!Array.isArray(stored)) return result;
  if (!('currentVersionId' in result) && stored.length > 0) {
    const last: unknown = stored.at(-1);
    result = { ...result, currentVersionId: isObject(last) ? last.id : undefined };
  }
  const owner = result;
  const versions = stored.map((version) => expandVersion(version, owner));
  return versions.every((version, index) => version === stored[index]) ? result : { ...result, versions };
}

/** Puts back each part stored as its hash alone, from its base version (which must be in the document). */
function expandParts(node: unknown, versions: Map<string, Map<string, Json>>): unknown {
  if (!isObject(node) || !Array.isArray(node.versions)) return node;
  let changed = false;
  const stored: readonly unknown[] = node.versions;
  const expanded = stored.map((version): unknown => {
    const upstream = isObject(version) ? version.upstream : undefined;
    if (
      !isObject(upstream) ||
      !Array.isArray(upstream.parts) ||
      !upstream.parts.some((part) => typeof part === 'string')
    )
      return version;
    const base = isObject(upstream.base) ? upstream.base : undefined;
    const baseVersion =
      base && typeof base.nodeId === 'string' && typeof base.versionId === 'string'
        ? versions.get(base.nodeId)?.get(base.versionId)
        : undefined;
    // Without its base version a hash stays a string, and the schema names the part that cannot be read.
    if (!base || !baseVersion || typeof baseVersion.question !== 'string' || typeof baseVersion.text !== 'string')
      return version;
    const opening = versionOpening(baseVersion as Version);
    changed = true;
    const storedParts: readonly unknown[] = upstream.parts;
    const parts = storedParts.map((part) =>
      typeof part === 'string' ? { nodeId: base.nodeId, hash: part, opening } : part,
    );
    return { ...(version as Json), upstream: { ...upstream, parts } };
  });
  return changed ? { ...node, versions: expanded } : node;
}

function expandEvents(events: readonly unknown[], nodes: readonly unknown[], wires: readonly unknown[]): unknown[] {
  const nodeById = new Map<string, Json>();
  for (const node of nodes) if (isObject(node) && typeof node.id === 'string') nodeById.set(node.id, node);
  const wireById = new Map<string, Json>();
  for (const wire of wires) if (isObject(wire) && typeof wire.id === 'string') wireById.set(wire.id, wire);
  const versions = versionIndex(nodes);
  let previousAt = 0;
  return events.map((event): unknown => {
    if (isObject(event)) {
      if (typeof event.at === 'number') previousAt = event.at;
      return event;
    }
    // A malformed entry passes through, for the schema to name it.
    if (!Array.isArray(event) || event.length < 6 || event.length > 7) return event;
    const [id, delta, op, objectId, stored, hash, prevHash] = event as unknown[];
    if (typeof delta !== 'number' || typeof op !== 'string' || typeof objectId !== 'string') return event;
    const at = previousAt + delta;
    previousAt = at;
    let meta: unknown = stored;
    if (stored === null) meta = derivedMeta(op, nodeById.get(objectId), wireById.get(objectId));
    else if (Array.isArray(stored) && op === 'version' && typeof stored[0] === 'string') {
      const version = versions.get(objectId)?.get(stored[0]);
      meta = version ? versionMeta(version, stored[1]) : undefined;
    }
    const record: Json = { id, at, op, objectId, meta, hash };
    if (prevHash !== undefined) record.prevHash = prevHash;
    return record;
  });
}

function expandWire(wire: unknown): unknown {
  if (!Array.isArray(wire) || wire.length !== 4) return wire;
  const [id, from, to, createdAt] = wire as unknown[];
  return { id, from, to, createdAt, kind: 'solid' };
}

/**
 * Any canvas JSON with its stored form put back into the full one (see `StoredCanvasForm`); anything that is not
 * a stored form passes through as it is, for the schema to read or refuse.
 */
export function expandStoredCanvas(input: unknown): unknown {
  if (!isObject(input) || !Array.isArray(input.nodes)) return input;
  const wires = Array.isArray(input.wires) ? input.wires.map(expandWire) : input.wires;
  const filled = input.nodes.map(expandNode);
  const versions = versionIndex(filled);
  const nodes = filled.map((node) => expandParts(node, versions));
  const events = Array.isArray(input.events)
    ? expandEvents(input.events, nodes, Array.isArray(wires) ? wires : [])
    : input.events;
  return { ...input, nodes, wires, events };
}

/** Reads the full form and the stored form alike (`expandStoredCanvas` puts back what the stored form leaves out). */
export const CanvasDocumentSchema = z.preprocess(expandStoredCanvas, CanvasRecordsSchema);

/** The document as it is written to a file or a stream: the version-4 stored form. */
export function storedCanvasDocument(document: CanvasDocument): StoredCanvasForm {
  return compactCanvas(document);
}
