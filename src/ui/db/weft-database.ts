import Dexie, { type Table } from 'dexie';
import type {
  Attachment,
  CanvasMeta,
  CanvasNode,
  MirrorLedger,
  StaleDismissal,
  Wire,
} from '../../../protocol/index.ts';
import type { EventRecord } from '../../../protocol/index.ts';
import { packRow, packSources, type PackRow } from './canvas-packs.ts';

/**
 * A canvas row, its nodes, wires and events in packs (`canvas-packs.ts`: a change rewrites only the packs it
 * touched, C26), and one row per attachment, dismissal and ledger. Node, wire and event rows are schema version
 * 1–2's form, read only by the version 3 upgrade.
 */
export interface CanvasRow {
  id: string;
  meta: CanvasMeta;
  updatedAt: number;
  nodeCount: number;
}
export interface NodeRow {
  canvasId: string;
  id: string;
  record: CanvasNode;
}
export interface WireRow {
  canvasId: string;
  id: string;
  record: Wire;
}
/** Attachments are stored once by the hash of their bytes and shared by the canvases that use them. */
export interface AttachmentRow {
  hash: string;
  record: Attachment;
  canvasIds: string[];
}
export interface EventRow {
  canvasId: string;
  id: string;
  seq: number;
  record: EventRecord;
}
export interface DismissalRow {
  canvasId: string;
  id: string;
  record: StaleDismissal;
}
export interface LedgerRow {
  canvasId: string;
  id: string;
  record: MirrorLedger;
}
/** The revision of the server's durable record this browser's copy of a canvas was last in step with. */
export interface RevisionRow {
  canvasId: string;
  revision: string;
  /**
   * True only while the rows are exactly that revision's record (a server read cached, a newer record adopted, a
   * save landed with nothing written since): the next save after a reload may then send only what changed. Every
   * local write clears it in its own transaction; rows written before the flag existed lack it (not exact).
   */
  exact?: boolean;
}
/**
 * One typed step on a canvas that the server has not acknowledged yet (`pending-queue.ts`), written in the same
 * transaction as the rows it changed. `owner` is the page that made (or took over) it, `position` its place in that
 * page's journal; `step` is core's `LocalStep` (narrowed), kept opaque here.
 */
export interface PendingRow {
  seq?: number;
  canvasId: string;
  owner: string;
  position: number;
  /** The durable revision the page's copy was based on when the step was made. */
  baseRevision: string | null;
  step: unknown;
}
export interface SettingRow {
  key: string;
  value: unknown;
}

export const DATABASE_NAME = 'weft';

/**
 * The versioned IndexedDB schema. Add a new `this.version(n)` block with an `upgrade` for every
 * change; never edit an old block (Dexie replays them in order on older databases).
 */
export class WeftDatabase extends Dexie {
  canvases!: Table<CanvasRow, string>;
  attachments!: Table<AttachmentRow, string>;
  dismissals!: Table<DismissalRow, [string, string]>;
  ledgers!: Table<LedgerRow, [string, string]>;
  settings!: Table<SettingRow, string>;
  revisions!: Table<RevisionRow, string>;
  packs!: Table<PackRow, [string, string, number]>;
  pending!: Table<PendingRow, number>;

  constructor(name = DATABASE_NAME) {
    super(name);
    this.version(1).stores({
      canvases: 'id, updatedAt',
      nodes: '[canvasId+id], canvasId',
      wires: '[canvasId+id], canvasId',
      attachments: 'hash, *canvasIds',
      events: '[canvasId+id], canvasId, [canvasId+seq]',
      dismissals: '[canvasId+id], canvasId',
      ledgers: '[canvasId+id], canvasId',
      settings: 'key',
    });
    // 2: each canvas remembers the durable revision its rows match, so its next save names it (409 when stale).
    this.version(2).stores({ revisions: 'canvasId' });
    // 3: nodes, wires and events in packs of a few hundred records as JSON text, read in ~300 rows instead of
    // ~50,000 at 10,000 nodes (IndexedDB's cost is per row: the cached first paint).
    this.version(3)
      .stores({ packs: '[canvasId+kind+bucket], canvasId', nodes: null, wires: null, events: null })
      .upgrade(async (transaction) => {
        const byCanvas = new Map<string, { nodes: CanvasNode[]; wires: Wire[]; events: EventRecord[] }>();
        const of = (canvasId: string) => {
          let records = byCanvas.get(canvasId);
          if (!records) byCanvas.set(canvasId, (records = { nodes: [], wires: [], events: [] }));
          return records;
        };
        for (const row of (await transaction.table('nodes').toArray()) as NodeRow[])
          of(row.canvasId).nodes.push(row.record);
        for (const row of (await transaction.table('wires').toArray()) as WireRow[])
          of(row.canvasId).wires.push(row.record);
        const events = (await transaction.table('events').orderBy('[canvasId+seq]').toArray()) as EventRow[];
        for (const row of events) of(row.canvasId).events.push(row.record);
        for (const [canvasId, records] of byCanvas)
          await transaction.table('packs').bulkPut(packSources(canvasId, records).map(packRow));
      });
    // 4: the steps the server has not acknowledged, so a tab closed or reloaded before its save landed replays them.
    this.version(4).stores({ pending: '++seq, canvasId' });
  }
}

export function dismissalKey(dismissal: StaleDismissal): string {
  return `${dismissal.nodeId}:${dismissal.fingerprint}`;
}

export function ledgerKey(ledger: MirrorLedger): string {
  return `${ledger.runner}:${ledger.sessionId}`;
}
