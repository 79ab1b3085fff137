import {
  AttachmentSchema,
  CANVAS_FORMAT,
  CANVAS_VERSION,
  CanvasMetaSchema,
  CanvasNodeSchema,
  EventRecordSchema,
  MirrorLedgerSchema,
  StaleDismissalSchema,
  WireSchema,
  type CanvasDocument,
} from '../../../protocol/index.ts';
import { pauseForPage } from '../db/index.ts';
import { ApiClientError } from './api-error.ts';

/** Records checked per slice: a few milliseconds of schema work, so frames keep coming while a big canvas is checked. */
const RECORDS_PER_SLICE = 250;

const KINDS = [
  ['nodes', CanvasNodeSchema],
  ['wires', WireSchema],
  ['attachments', AttachmentSchema],
  ['dismissals', StaleDismissalSchema],
  ['ledgers', MirrorLedgerSchema],
  ['events', EventRecordSchema],
] as const;

/**
 * The schema check of a canvas read unchecked (painted first), record by record in slices: resolves when every
 * record is what the schema reads, rejects with `bad-response` naming the first one that is not.
 */
export async function checkCanvasLater(
  document: CanvasDocument,
  pause: () => Promise<void> = pauseForPage,
): Promise<void> {
  const refuse = (where: string, message: string) =>
    new ApiClientError('bad-response', `The server sent a damaged canvas record (${where}: ${message}).`);
  if (document.format !== CANVAS_FORMAT || document.version !== CANVAS_VERSION)
    throw refuse('header', `expected ${CANVAS_FORMAT} version ${CANVAS_VERSION}`);
  const meta = CanvasMetaSchema.safeParse(document.canvas);
  if (!meta.success) throw refuse('canvas', meta.error.issues[0]?.message ?? 'invalid');
  let sincePause = 0;
  for (const [kind, schema] of KINDS) {
    const records: readonly unknown[] = document[kind];
    if (!Array.isArray(records)) throw refuse(kind, 'expected a list');
    for (let index = 0; index < records.length; index += 1) {
      const checked = schema.safeParse(records[index]);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw refuse(`${kind}.${index}.${issue?.path.map(String).join('.') ?? ''}`, issue?.message ?? 'invalid');
      }
      sincePause += 1;
      if (sincePause >= RECORDS_PER_SLICE) {
        sincePause = 0;
        await pause();
      }
    }
  }
}
