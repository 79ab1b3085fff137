import type { Response } from 'express';
import { storedCanvasDocument, type CanvasDocument } from '../../protocol/index.ts';

/** How many records go into one write (a few hundred KB), so the socket drains between them. */
const RECORDS_PER_WRITE = 200;

/** The lines of a document already sent, in writes: the store keeps one parsed document per revision, so an unchanged
 * record is sent again without serialising it again. */
const sentChunks = new WeakMap<CanvasDocument, string[]>();

/** The records as a version-4 file stores them (`compactCanvas`), one line each, a few hundred records per chunk. */
function chunksOf(document: CanvasDocument): string[] {
  const { format, version, canvas } = document;
  const chunks: string[] = [];
  const lines: string[] = [JSON.stringify({ format, version, canvas })];
  const kinds = ['nodes', 'wires', 'attachments', 'dismissals', 'ledgers', 'events'] as const;
  // The page's parse of the assembled document expands them.
  const records = storedCanvasDocument(document);
  for (const kind of kinds) {
    for (const record of records[kind] as unknown[]) {
      lines.push(JSON.stringify([kind, record]));
      if (lines.length >= RECORDS_PER_WRITE) chunks.push(lines.splice(0).join('\n') + '\n');
    }
  }
  if (lines.length) chunks.push(lines.join('\n') + '\n');
  return chunks;
}

/**
 * A canvas as newline-delimited JSON: a header line (`format`, `version`, `canvas`), then one `[kind, record]`
 * line per record in document order. The page assembles the records as they arrive instead of parsing one
 * JSON body of the whole canvas at the end.
 */
export async function sendCanvasRecords(response: Response, document: CanvasDocument): Promise<void> {
  response.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  let chunks = sentChunks.get(document);
  if (!chunks) {
    chunks = chunksOf(document);
    sentChunks.set(document, chunks);
  }
  for (const chunk of chunks) await write(response, chunk);
  response.end();
}

function write(response: Response, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    if (response.write(chunk)) return resolve();
    // A page that went away never drains: stop waiting when the socket closes.
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}
