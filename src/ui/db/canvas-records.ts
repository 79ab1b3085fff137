import type {
  Attachment,
  CanvasDocument,
  CanvasMeta,
  CanvasNode,
  MirrorLedger,
  StaleDismissal,
  Wire,
} from '../../../protocol/index.ts';
import { CANVAS_FORMAT, CANVAS_VERSION } from '../../../protocol/index.ts';
import type { EventRecord } from '../../../protocol/index.ts';

/**
 * The records of one canvas as persistence sees them. Records are immutable: a change replaces
 * the object it touched, so persistence finds changed rows by object identity.
 */
export interface CanvasRecords {
  canvas: CanvasMeta;
  nodes: Iterable<CanvasNode>;
  wires: Iterable<Wire>;
  attachments: Iterable<Attachment>;
  dismissals: Iterable<StaleDismissal>;
  ledgers: Iterable<MirrorLedger>;
  events: readonly EventRecord[];
}

export function recordsFromDocument(document: CanvasDocument): CanvasRecords {
  return {
    canvas: document.canvas,
    nodes: document.nodes,
    wires: document.wires,
    attachments: document.attachments,
    dismissals: document.dismissals,
    ledgers: document.ledgers,
    events: document.events,
  };
}

export function documentFromRecords(records: CanvasRecords): CanvasDocument {
  return {
    format: CANVAS_FORMAT,
    version: CANVAS_VERSION,
    canvas: records.canvas,
    nodes: [...records.nodes],
    wires: [...records.wires],
    attachments: [...records.attachments],
    dismissals: [...records.dismissals],
    ledgers: [...records.ledgers],
    events: [...records.events],
  };
}
