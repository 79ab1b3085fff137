import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import type { Runner } from '../../protocol/index.ts';
import { detectRunner, runnerOfRecord } from './detect-runner.ts';
import { MAX_LINE_BYTES, splitGluedJson } from './line-decoder.ts';
import { SessionAccumulator } from './session-accumulator.ts';
import { SessionFormatError } from './session-format-error.ts';

/**
 * Session files that cannot be resumed at a byte offset: compressed Codex rollouts (`.jsonl.zst`) and files
 * that are JSON but not one record per line (a pretty-printed rollout). Both are read whole, every time
 * they change; what they yield is the same accumulator output as a JSON Lines file.
 */

const CHUNK_BYTES = 1024 * 1024;
const DETECT_LINES = 50;
/** A JSON text spanning lines is parsed in one piece: beyond this it is refused, not buffered. */
export const MAX_SPANNING_BYTES = 64 * 1024 * 1024;

export interface WholeFileRead {
  runner: Runner;
  accumulator: SessionAccumulator;
}

/**
 * Streams a zstd-compressed JSON Lines file through `fzstd` (chunk by chunk from the fenced handle; a line
 * over the cap is skipped whole, only its length counted). Throws `SessionFormatError` when the data is not
 * zstd or holds no record any runner wrote.
 */
export async function readCompressedLines(
  handle: FileHandle,
  size: number,
  sourcePath: string,
): Promise<WholeFileRead> {
  let accumulator: SessionAccumulator | null = null;
  /** Lines held until the runner is known (the first `DETECT_LINES`). */
  let held: { bytes: Buffer; length: number }[] = [];
  let pieces: Buffer[] = [];
  let pendingLength = 0;

  const deliver = (bytes: Buffer, length: number): void => {
    if (accumulator !== null) {
      accumulator.push(bytes, length);
      return;
    }
    held.push({ bytes, length });
    if (held.length >= DETECT_LINES) settle();
  };
  const settle = (): void => {
    if (accumulator !== null) return;
    const runner = detectRunner(held.map((line) => line.bytes.toString('utf8')));
    if (runner === null) throw new SessionFormatError('ATLAS_NOT_A_SESSION', notASession(held.length));
    accumulator = new SessionAccumulator(runner, sourcePath);
    for (const line of held) accumulator.push(line.bytes, line.length);
    held = [];
  };
  const onData = (data: Uint8Array): void => {
    let start = 0;
    const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const length = end - start;
      if (pendingLength + length <= MAX_LINE_BYTES) pieces.push(Buffer.from(chunk.subarray(start, end)));
      else pieces = [];
      pendingLength += length;
      if (newline === -1) break;
      const line = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      deliver(pendingLength > MAX_LINE_BYTES ? line.subarray(0, 0) : line, pendingLength);
      pieces = [];
      pendingLength = 0;
      start = end + 1;
    }
  };

  const stream = new Decompress(onData);
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size, 1)));
  let position = 0;
  try {
    while (position < size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      // fzstd keeps references to pushed chunks until a frame completes: hand it a copy.
      stream.push(Uint8Array.prototype.slice.call(buffer, 0, bytesRead), position >= size);
    }
    if (size === 0) stream.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof SessionFormatError) throw error;
    throw new SessionFormatError('ATLAS_BAD_COMPRESSION', `not a readable zstd stream: ${(error as Error).message}`);
  }
  settle();
  const tail = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  const done = accumulator as SessionAccumulator | null;
  if (done === null) throw new SessionFormatError('ATLAS_NOT_A_SESSION', notASession(0));
  done.finish(pendingLength > MAX_LINE_BYTES ? tail.subarray(0, 0) : tail, pendingLength);
  return { runner: done.runner, accumulator: done };
}

/**
 * A file whose records are JSON values spanning lines (pretty-printed) or written back to back: each
 * top-level value is one record. Returns null when the text is not such a sequence (the caller reports the
 * file as not a session); throws when it is too large to parse in one piece.
 */
export function readSpanningJson(bytes: Buffer, sourcePath: string): WholeFileRead | null {
  const text = bytes.toString('utf8');
  const { pieces, rest } = splitGluedJson(text);
  if (pieces.length === 0) return null;
  const records: Record<string, unknown>[] = [];
  for (const piece of pieces) {
    try {
      const value: unknown = JSON.parse(piece);
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        records.push(value as Record<string, unknown>);
    } catch {
      // Counted by the accumulator below, which sees the same piece.
    }
  }
  const runner = records
    .slice(0, DETECT_LINES)
    .map(runnerOfRecord)
    .find((found) => found !== null);
  if (runner === undefined || runner === null) return null;
  const accumulator = new SessionAccumulator(runner, sourcePath);
  // One record per value, as compact JSON: ids derived from line bytes stay stable across re-reads.
  for (const piece of pieces) {
    accumulator.push(Buffer.from(compactJson(piece)));
  }
  if (rest.trim() !== '') accumulator.push(Buffer.from(rest.replaceAll('\n', ' ')));
  accumulator.finish();
  return { runner, accumulator };
}

/** One value as one line: compact JSON, or (when it does not parse) its text with newlines flattened. */
function compactJson(piece: string): string {
  try {
    return JSON.stringify(JSON.parse(piece));
  } catch {
    return piece.replaceAll('\n', ' ');
  }
}

export function notASession(records: number): string {
  return records === 0
    ? 'no JSON record in the file'
    : `none of the first ${records} records was written by Claude Code, Codex or pi`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
