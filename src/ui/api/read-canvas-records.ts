import {
  CanvasDocumentSchema,
  chainedEvents,
  expandStoredCanvas,
  type CanvasDocument,
  type StoredEvent,
} from '../../../protocol/index.ts';
import { ApiClientError } from './api-error.ts';
import { checkCanvasLater } from './check-canvas-later.ts';

type RecordKind = 'nodes' | 'wires' | 'attachments' | 'dismissals' | 'ledgers' | 'events';
const KINDS: readonly RecordKind[] = ['nodes', 'wires', 'attachments', 'dismissals', 'ledgers', 'events'];

/**
 * Reads `GET /api/canvases/:id` sent as records, one JSON value per line (a header, then `[kind, record]`), parsing
 * each line as it arrives; the assembled document is validated once, like a JSON body.
 */
export async function readCanvasRecords(response: Response): Promise<CanvasDocument> {
  const parsed = CanvasDocumentSchema.safeParse(await assembleRecords(response));
  if (!parsed.success)
    throw new ApiClientError('bad-response', `Unexpected response: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

/**
 * The same read for painting first: the stored form expanded and the log's links put back, and `check` to run the
 * schema over it record by record afterwards (`checkCanvasLater`), so a big canvas is not held back by it.
 */
export async function readCanvasRecordsUnchecked(
  response: Response,
): Promise<{ document: CanvasDocument; check: () => Promise<void> }> {
  const expanded = expandStoredCanvas(await assembleRecords(response)) as CanvasDocument;
  const events: unknown = expanded.events;
  // The links are needed before anything is appended; a malformed event is left for the check to name.
  const chained = Array.isArray(events) && events.every((event) => typeof event === 'object' && event !== null);
  const document = chained ? { ...expanded, events: chainedEvents(events as StoredEvent[]) } : expanded;
  return { document, check: () => checkCanvasLater(document) };
}

async function assembleRecords(response: Response): Promise<Record<string, unknown>> {
  if (!response.body) throw new ApiClientError('bad-response', 'The server sent the canvas without a body.');
  const records = Object.fromEntries(KINDS.map((kind) => [kind, [] as unknown[]])) as Record<RecordKind, unknown[]>;
  let header: object | null = null;
  const take = (line: string) => {
    if (line.length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ApiClientError('bad-response', 'The server sent a canvas record that is not JSON.');
    }
    if (header === null) {
      if (typeof value !== 'object' || value === null)
        throw new ApiClientError('bad-response', 'The server sent a canvas without its header.');
      header = value;
      return;
    }
    const kind = Array.isArray(value) && value.length === 2 ? KINDS.find((name) => name === value[0]) : undefined;
    if (!kind) throw new ApiClientError('bad-response', 'The server sent a canvas record of no known kind.');
    records[kind].push((value as unknown[])[1]);
  };
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  // A line longer than one chunk (an attachment) is collected in pieces, never re-scanned.
  let pending: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      pending.push(text.slice(start, end));
      take(pending.join(''));
      pending = [];
      start = end + 1;
    }
    if (start < text.length) pending.push(text.slice(start));
    if (done) break;
  }
  take(pending.join(''));
  return { ...(header ?? {}), ...records };
}
