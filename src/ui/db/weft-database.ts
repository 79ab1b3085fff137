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

/** One row per record, keyed by canvas and record id, so a change writes only what it touched (C26). */
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
  nodes!: Table<NodeRow, [string, string]>;
  wires!: Table<WireRow, [string, string]>;
  attachments!: Table<AttachmentRow, string>;
  events!: Table<EventRow, [string, string]>;
  dismissals!: Table<DismissalRow, [string, string]>;
  ledgers!: Table<LedgerRow, [string, string]>;
  settings!: Table<SettingRow, string>;
  revisions!: Table<RevisionRow, string>;

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
  }
}

export function dismissalKey(dismissal: StaleDismissal): string {
  return `${dismissal.nodeId}:${dismissal.fingerprint}`;
}

export function ledgerKey(ledger: MirrorLedger): string {
  return `${ledger.runner}:${ledger.sessionId}`;
}
