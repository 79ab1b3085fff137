import { z } from 'zod';
import {
  AttachmentSchema,
  CanvasMetaSchema,
  CanvasNodeSchema,
  MirrorLedgerSchema,
  StaleDismissalSchema,
  WireSchema,
  type CanvasDocument,
  type MirrorLedger,
  type StaleDismissal,
} from './canvas-document.ts';
import { EventRecordSchema } from './event-record.ts';

/** A dismissal's key in a patch: one per node and judged fingerprint. */
export const dismissalPatchKey = (dismissal: StaleDismissal): string => `${dismissal.nodeId}:${dismissal.fingerprint}`;
/** A ledger's key in a patch: one per runner and session. */
export const ledgerPatchKey = (ledger: MirrorLedger): string => `${ledger.runner}:${ledger.sessionId}`;

const Key = z.string().min(1).max(400);

/**
 * `PATCH /api/canvases/:id` (with `If-Match` like a PUT): the records that changed since the revision it names,
 * so a one-character edit on a 20,000-node canvas sends that node, not the canvas. Records in `put` replace the
 * stored record with the same key (or are appended); `remove` names keys; `appendEvents` extends the log.
 */
export const CanvasPatchSchema = z.object({
  format: z.literal('weft.canvas-patch'),
  version: z.literal(1),
  canvas: CanvasMetaSchema.nullable(),
  put: z.object({
    nodes: z.array(CanvasNodeSchema),
    wires: z.array(WireSchema),
    attachments: z.array(AttachmentSchema),
    dismissals: z.array(StaleDismissalSchema),
    ledgers: z.array(MirrorLedgerSchema),
  }),
  remove: z.object({
    nodes: z.array(Key),
    wires: z.array(Key),
    attachments: z.array(Key),
    dismissals: z.array(Key),
    ledgers: z.array(Key),
  }),
  /** How many events the base revision holds: the appended ones follow exactly there. */
  eventsBefore: z.number().int().nonnegative(),
  appendEvents: z.array(EventRecordSchema),
});
export type CanvasPatch = z.infer<typeof CanvasPatchSchema>;

type Keyed<T> = { list: readonly T[]; key: (record: T) => string };

/** Replaces records by key in place, appends new ones and drops removed keys, keeping the stored order. */
function patchList<T>({ list, key }: Keyed<T>, put: readonly T[], remove: readonly string[]): T[] {
  const replaced = new Map(put.map((record) => [key(record), record]));
  const removed = new Set(remove);
  const kept: T[] = [];
  for (const record of list) {
    const id = key(record);
    if (removed.has(id) && !replaced.has(id)) continue;
    const next = replaced.get(id);
    kept.push(next ?? record);
    replaced.delete(id);
  }
  return [...kept, ...replaced.values()];
}

/** The document with `patch` applied (pure; the caller checks the integrity and the event chain). */
export function applyCanvasPatch(document: CanvasDocument, patch: CanvasPatch): CanvasDocument {
  return {
    ...document,
    canvas: patch.canvas ?? document.canvas,
    nodes: patchList({ list: document.nodes, key: (node) => node.id }, patch.put.nodes, patch.remove.nodes),
    wires: patchList({ list: document.wires, key: (wire) => wire.id }, patch.put.wires, patch.remove.wires),
    attachments: patchList(
      { list: document.attachments, key: (attachment) => attachment.hash },
      patch.put.attachments,
      patch.remove.attachments,
    ),
    dismissals: patchList(
      { list: document.dismissals, key: dismissalPatchKey },
      patch.put.dismissals,
      patch.remove.dismissals,
    ),
    ledgers: patchList({ list: document.ledgers, key: ledgerPatchKey }, patch.put.ledgers, patch.remove.ledgers),
    events: [...document.events, ...patch.appendEvents],
  };
}

/**
 * The patch that turns `before` into `after`, finding changed records by object identity (records are immutable:
 * a change replaces the object it touched). Null when `after`'s log does not extend `before`'s (then send it whole).
 */
export function canvasPatchBetween(before: CanvasDocument, after: CanvasDocument): CanvasPatch | null {
  const count = before.events.length;
  if (after.events.length < count || (count > 0 && after.events[count - 1] !== before.events[count - 1])) return null;
  const diff = <T>(left: readonly T[], right: readonly T[], key: (record: T) => string) => {
    const old = new Map(left.map((record) => [key(record), record]));
    const now = new Set<string>();
    const put: T[] = [];
    for (const record of right) {
      const id = key(record);
      now.add(id);
      if (old.get(id) !== record) put.push(record);
    }
    return { put, remove: [...old.keys()].filter((id) => !now.has(id)) };
  };
  const nodes = diff(before.nodes, after.nodes, (node) => node.id);
  const wires = diff(before.wires, after.wires, (wire) => wire.id);
  const attachments = diff(before.attachments, after.attachments, (attachment) => attachment.hash);
  const dismissals = diff(before.dismissals, after.dismissals, dismissalPatchKey);
  const ledgers = diff(before.ledgers, after.ledgers, ledgerPatchKey);
  return {
    format: 'weft.canvas-patch',
    version: 1,
    canvas: before.canvas === after.canvas ? null : after.canvas,
    put: {
      nodes: nodes.put,
      wires: wires.put,
      attachments: attachments.put,
      dismissals: dismissals.put,
      ledgers: ledgers.put,
    },
    remove: {
      nodes: nodes.remove,
      wires: wires.remove,
      attachments: attachments.remove,
      dismissals: dismissals.remove,
      ledgers: ledgers.remove,
    },
    eventsBefore: count,
    appendEvents: after.events.slice(count),
  };
}
