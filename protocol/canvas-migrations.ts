import {
  CANVAS_FORMAT,
  CANVAS_VERSION,
  type CanvasDocument,
  type UpstreamBase,
  type UpstreamPart,
  type UpstreamRecord,
} from './canvas-document.ts';
import { CanvasDocumentSchema } from './canvas-stored-form.ts';
import { upstreamDelta, upstreamRecordSize } from './upstream-record.ts';
import { storedEvents } from './stored-events.ts';
import type { EventRecord } from './event-record.ts';

/**
 * Named, tested steps that lift an older `.weft.json` to the current version (docs/architecture.md, style 8).
 * Each step takes the raw JSON of version `from` and returns raw JSON of version `to`; the
 * result is validated against the current schema only at the end.
 */
export interface CanvasMigration {
  from: number;
  to: number;
  name: string;
  migrate: (document: Record<string, unknown>) => Record<string, unknown>;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Version 0 is the pre-release draft format the prototypes wrote. It differs from version 1 in:
 * no `dismissals` or `ledgers`; nodes without `excludedParts`, `size` or `archivedAt`; question
 * nodes without `autoRerun`, `model` or `attachments`; versions without `upstreamParts`,
 * `origin`, `status` or `branchOf`; dashed wires without `depth` (they were always quotes);
 * and the event log under `log`.
 */
export const draftToVersionOne: CanvasMigration = {
  from: 0,
  to: 1,
  name: 'draft-0-to-1: fill defaults for fields version 1 added',
  migrate(document) {
    const nodes = list(document.nodes).map((raw) => {
      if (!isObject(raw)) return raw;
      const node: Json = {
        size: null,
        archivedAt: raw.archived === true ? (raw.createdAt ?? 0) : null,
        excludedParts: [],
        ...raw,
      };
      if (node.kind === 'question') {
        node.autoRerun ??= { enabled: false, rounds: 1 };
        node.model ??= null;
        node.attachments ??= [];
        node.versions = list(node.versions).map((version) =>
          isObject(version)
            ? { upstreamParts: [], origin: 'generated', status: 'complete', branchOf: null, ...version }
            : version,
        );
      }
      return node;
    });
    const wires = list(document.wires).map((raw) =>
      isObject(raw) && raw.kind === 'dashed' && raw.depth === undefined ? { ...raw, depth: 'quote' } : raw,
    );
    const { log, ...rest } = document;
    return {
      ...rest,
      version: 1,
      nodes,
      wires,
      attachments: document.attachments ?? [],
      dismissals: document.dismissals ?? [],
      ledgers: document.ledgers ?? [],
      events: document.events ?? log ?? [],
    };
  },
};

/**
 * Version 1 stored every upstream part (hash + opening) in every version, so a document grew with nodes × chain
 * depth. Version 2 stores each version's parts as a difference from a base version (`upstream`), normally the
 * parent answer current when it was asked: the base is the latest version, created no later than this one, of a
 * question wired into this node, whose parts differ least. Each base's own version-1 list is the full list its
 * version-2 record folds back to, so every version's parts come back exactly.
 */
export const partsToUpstreamRecords: CanvasMigration = {
  from: 1,
  to: 2,
  name: 'parts-1-to-2: store upstream parts as a difference from a base version',
  migrate(document) {
    const nodes = list(document.nodes);
    const versionsOf = new Map<string, Json[]>();
    for (const node of nodes) {
      if (isObject(node) && node.kind === 'question' && typeof node.id === 'string')
        versionsOf.set(node.id, list(node.versions).filter(isObject));
    }
    const parentsOf = new Map<string, string[]>();
    for (const wire of list(document.wires)) {
      if (!isObject(wire) || typeof wire.from !== 'string' || typeof wire.to !== 'string') continue;
      parentsOf.set(wire.to, [...(parentsOf.get(wire.to) ?? []), wire.from]);
    }
    const partsOf = (version: Json) => list(version.upstreamParts).filter(isObject) as unknown as UpstreamPart[];
    const recordOf = (nodeId: string, version: Json): UpstreamRecord => {
      const parts = partsOf(version);
      let best = upstreamDelta(null, [], parts);
      const createdAt = typeof version.createdAt === 'number' ? version.createdAt : Infinity;
      for (const parentId of parentsOf.get(nodeId) ?? []) {
        if (parentId === nodeId) continue;
        const asked = (versionsOf.get(parentId) ?? [])
          .filter((candidate) => typeof candidate.id === 'string' && Number(candidate.createdAt) <= createdAt)
          .sort((left, right) => Number(right.createdAt) - Number(left.createdAt))[0];
        if (!asked) continue;
        const base: UpstreamBase = { nodeId: parentId, versionId: asked.id as string };
        const record = upstreamDelta(base, partsOf(asked), parts);
        if (upstreamRecordSize(record) < upstreamRecordSize(best)) best = record;
      }
      return best;
    };
    return {
      ...document,
      version: 2,
      nodes: nodes.map((node) => {
        if (!isObject(node) || node.kind !== 'question' || typeof node.id !== 'string') return node;
        const nodeId = node.id;
        return {
          ...node,
          versions: list(node.versions).map((version) => {
            if (!isObject(version)) return version;
            const { upstreamParts: _parts, ...rest } = version;
            return { ...rest, upstream: recordOf(nodeId, version) };
          }),
        };
      }),
    };
  },
};

/**
 * Version 2 stored every event's `prevHash`, though in an intact log it is the hash of the event before it (about a
 * quarter of the log's bytes). Version 3 leaves out each `prevHash` that follows from the order, and keeps any
 * that does not (a log starting mid-chain, a broken link), so the chain verifies, or fails, exactly as before.
 */
export const eventsWithoutPrevHash: CanvasMigration = {
  from: 2,
  to: 3,
  name: 'events-2-to-3: leave out the prevHash each event takes from the one before it',
  migrate(document) {
    // Malformed entries pass through untouched, for the schema to name them.
    const events = list(document.events);
    const wellFormed = events.every(
      (event) => isObject(event) && typeof event.hash === 'string' && typeof event.prevHash === 'string',
    );
    return {
      ...document,
      version: 3,
      events: wellFormed ? storedEvents(events as unknown as EventRecord[]) : document.events,
    };
  },
};

/**
 * Version 3 stored every field of every record, including defaults, each version's question beside its node's, the
 * parent's answer opening in each child's upstream part, and events as objects whose meta repeats the record they
 * name. Version 4 stores each of those once (`canvas-stored-form.ts`). A version-3 record is already a version-4
 * record in full form (the stored form's rules only ever leave things out), so this step only names the version;
 * the next write stores it compact.
 */
export const storedFormThreeToFour: CanvasMigration = {
  from: 3,
  to: 4,
  name: 'stored-form-3-to-4: a version-3 record is the full form of version 4; writes leave out what is stored once',
  migrate(document) {
    return { ...document, version: 4 };
  },
};

/** Every step, in order. A later version appends its step here (and a test for it). */
export const CANVAS_MIGRATIONS: readonly CanvasMigration[] = [
  draftToVersionOne,
  partsToUpstreamRecords,
  eventsWithoutPrevHash,
  storedFormThreeToFour,
];

export type CanvasLoadErrorCode = 'not-a-canvas' | 'newer-version' | 'no-migration' | 'corrupt';

export interface CanvasLoadError {
  code: CanvasLoadErrorCode;
  message: string;
  /** For `corrupt`: where the first problem is, e.g. `nodes.3.versions.0.upstreamFingerprint`. */
  path?: string;
}

export type CanvasLoadResult =
  { ok: true; document: CanvasDocument; applied: string[] } | { ok: false; error: CanvasLoadError };

/**
 * Reads any JSON value that claims to be a canvas: refuses foreign files, files from a newer
 * Weft and corrupt files (naming the first bad field), and migrates older versions step by step.
 */
export function migrateCanvasDocument(
  input: unknown,
  migrations: readonly CanvasMigration[] = CANVAS_MIGRATIONS,
): CanvasLoadResult {
  if (!isObject(input) || input.format !== CANVAS_FORMAT) {
    return refuse('not-a-canvas', `This is not a Weft canvas (expected "format": "${CANVAS_FORMAT}").`);
  }
  const version = input.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return refuse('corrupt', 'The canvas has no valid "version" number.', 'version');
  }
  if (version > CANVAS_VERSION) {
    return refuse(
      'newer-version',
      `This canvas was made by a newer Weft (format version ${version}; this Weft reads up to ${CANVAS_VERSION}). Update Weft to open it.`,
    );
  }
  let document: Json = input;
  const applied: string[] = [];
  while ((document.version as number) < CANVAS_VERSION) {
    const from = document.version as number;
    const step = migrations.find((migration) => migration.from === from);
    if (!step) return refuse('no-migration', `No migration from canvas version ${from}.`);
    try {
      document = step.migrate(document);
    } catch (error) {
      return refuse(
        'corrupt',
        `Migration "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (document.version !== step.to)
      return refuse('corrupt', `Migration "${step.name}" did not produce version ${step.to}.`);
    applied.push(step.name);
  }
  const parsed = CanvasDocumentSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    return refuse('corrupt', `The canvas file is damaged at ${path || 'the top level'}: ${issue.message}.`, path);
  }
  return { ok: true, document: parsed.data, applied };
}

function refuse(code: CanvasLoadErrorCode, message: string, path?: string): CanvasLoadResult {
  return { ok: false, error: path === undefined ? { code, message } : { code, message, path } };
}
