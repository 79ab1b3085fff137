import type { Response } from 'express';
import { storedCanvasDocument, type CanvasDocument } from '../../protocol/index.ts';

/** How many records go into one write (a few hundred KB), so the socket drains between them. */
const RECORDS_PER_WRITE = 200;

/**
 * A canvas as newline-delimited JSON: a header line (`format`, `version`, `canvas`), then one `[kind, record]`
 * line per record in document order. The page assembles the records as they arrive instead of parsing one
 * JSON body of the whole canvas at the end.
 */
export async function sendCanvasRecords(response: Response, document: CanvasDocument): Promise<void> {
  response.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  const { format, version, canvas } = document;
  const lines: string[] = [JSON.stringify({ format, version, canvas })];
  const kinds = ['nodes', 'wires', 'attachments', 'dismissals', 'ledgers', 'events'] as const;
  // Records as a version-4 file stores them (`compactCanvas`); the page's parse of the assembled document expands them.
  const records = storedCanvasDocument(document);
  for (const kind of kinds) {
    for (const record of records[kind] as unknown[]) {
      lines.push(JSON.stringify([kind, record]));
      if (lines.length >= RECORDS_PER_WRITE) await write(response, lines.splice(0).join('\n') + '\n');
    }
  }
  if (lines.length) await write(response, lines.join('\n') + '\n');
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
