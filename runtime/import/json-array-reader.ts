import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { WeftError } from '../../protocol/index.ts';
import { ImportError, positionAt } from './import-error.ts';

export interface JsonArrayReadOptions {
  signal?: AbortSignal;
  /** Called after each chunk with the bytes read so far and the file's size. */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  chunkBytes?: number;
}

/** One element of the top-level array, with the byte offset where it starts (for an error that names it). */
export type ElementHandler = (value: unknown, index: number, startOffset: number) => void | Promise<void>;

/**
 * Streams a file holding one JSON array and hands each element over as soon as it is complete, so a 200 MB
 * `conversations.json` is never in memory at once (@streamparser/json with `keepStack: false` drops each element
 * from its parent once emitted). The next chunk is read only after the handler finished the elements of this one.
 * Invalid JSON, or a top-level value that is not an array, is an `ImportError` with the line and column.
 */
export async function readJsonArray(
  path: string,
  onElement: ElementHandler,
  options: JsonArrayReadOptions = {},
): Promise<{ elements: number; bytes: number }> {
  const totalBytes = (await stat(path)).size;
  const tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024 });
  const parser = new TokenParser({ paths: ['$.*'], keepStack: false });
  const pending: { value: unknown; index: number; start: number }[] = [];
  let depth = 0;
  let elementStart = -1;
  let lastOffset = 0;
  let tokens = 0;
  let elements = 0;
  let ended = false;

  tokenizer.onToken = (info) => {
    lastOffset = info.offset;
    if (tokens++ === 0 && info.token !== TokenType.LEFT_BRACKET) throw new NotAnArray(info.offset);
    if (depth === 1 && elementStart < 0 && info.token !== TokenType.COMMA && info.token !== TokenType.RIGHT_BRACKET)
      elementStart = info.offset;
    if (info.token === TokenType.LEFT_BRACE || info.token === TokenType.LEFT_BRACKET) depth += 1;
    else if (info.token === TokenType.RIGHT_BRACE || info.token === TokenType.RIGHT_BRACKET) depth -= 1;
    parser.write(info);
  };
  parser.onValue = ({ value, key }) => {
    pending.push({ value, index: typeof key === 'number' ? key : elements, start: elementStart });
    elementStart = -1;
  };
  parser.onEnd = () => {
    ended = true;
  };

  const fail = async (error: unknown, atEnd: boolean): Promise<never> => {
    if (error instanceof ImportError) throw error;
    if (error instanceof NotAnArray)
      throw new ImportError(
        'import-not-array',
        'This is not an export file: its top level must be a JSON array of conversations',
        await positionAt(path, error.offset),
      );
    const message = error instanceof Error ? error.message : String(error);
    const absolute = /absolute position "(\d+)"/.exec(message);
    const offset = absolute ? Number(absolute[1]) : atEnd ? totalBytes : lastOffset;
    throw new ImportError(
      'import-malformed',
      `The file is not valid JSON: ${plainReason(message)}`,
      await positionAt(path, offset),
    );
  };

  const stream = createReadStream(path, { highWaterMark: options.chunkBytes ?? 1 << 20 });
  let bytesRead = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) throw new ImportError('import-cancelled', 'The import was cancelled.');
      try {
        tokenizer.write(chunk);
      } catch (error) {
        await fail(error, false);
      }
      bytesRead += chunk.length;
      for (const element of pending.splice(0)) {
        if (options.signal?.aborted) throw new ImportError('import-cancelled', 'The import was cancelled.');
        await onElement(element.value, element.index, element.start);
        elements += 1;
      }
      options.onProgress?.(bytesRead, totalBytes);
    }
    if (tokens === 0) throw new ImportError('import-empty', 'The file is empty.');
    try {
      if (!ended) tokenizer.end();
    } catch (error) {
      await fail(error, true);
    }
    if (!ended) await fail(new Error('the file ends before its array is closed'), true);
  } finally {
    stream.destroy();
  }
  return { elements, bytes: bytesRead };
}

/** The parse loop's own signal, turned into an `ImportError` with the file position before it leaves. */
class NotAnArray extends WeftError {
  constructor(readonly offset: number) {
    super('import-not-array', 'not an array', null);
    this.name = 'NotAnArray';
  }
}

/** The parser's own words, without its chunk bookkeeping. */
function plainReason(message: string): string {
  return message.replace(/ at chunk position "\d+" \(absolute position "\d+"\)/, '').replace(/\.$/, '');
}
