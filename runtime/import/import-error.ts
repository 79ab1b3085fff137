import { createReadStream } from 'node:fs';
import { WeftError } from '../../protocol/index.ts';

export type ImportErrorCode =
  | 'import-malformed'
  | 'import-not-array'
  | 'import-unknown-format'
  | 'import-cancelled'
  | 'import-empty'
  | 'import-unsupported-file';

/** Where in the file the import stopped: 1-based line and column (in bytes from the line's start), and the byte offset. */
export interface FilePosition {
  line: number;
  column: number;
  offset: number;
}

/** A refused import. Nothing of it was stored; `position` says where the file went wrong, when it is known. */
export class ImportError extends WeftError {
  declare readonly code: ImportErrorCode;
  readonly position: FilePosition | null;

  constructor(code: ImportErrorCode, message: string, position: FilePosition | null = null) {
    super(code, position ? `${message} (line ${position.line}, column ${position.column})` : message, 400);
    this.name = 'ImportError';
    this.position = position;
  }
}

/** Line and column of a byte offset, by reading the file again up to it: only ever on the way to an error. */
export async function positionAt(path: string, offset: number): Promise<FilePosition> {
  let line = 1;
  let lineStart = 0;
  let read = 0;
  const stream = createReadStream(path, { end: Math.max(0, offset - 1), highWaterMark: 1 << 20 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let index = chunk.indexOf(10);
    while (index !== -1) {
      line += 1;
      lineStart = read + index + 1;
      index = chunk.indexOf(10, index + 1);
    }
    read += chunk.length;
  }
  return { line, column: offset - lineStart + 1, offset };
}
