import type { FileHandle } from 'node:fs/promises';
import type { ParseReport, Runner } from '../../protocol/index.ts';
import { detectRunner } from './detect-runner.ts';
import type { Fence } from './fence.ts';
import { MAX_LINE_BYTES } from './line-decoder.ts';
import { emptyParseReport } from './parse-report.ts';
import { SessionAccumulator } from './session-accumulator.ts';
import type { AtlasSession } from './session-builder.ts';
import { nodeHashPort } from '../hash/index.ts';
import { SessionFormatError } from './session-format-error.ts';
import { MAX_SPANNING_BYTES, readCompressedLines, readSpanningJson, type WholeFileRead } from './whole-file-reader.ts';

export const PREFIX_HASH_BYTES = 64 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const DETECT_BYTES = 256 * 1024;
const DETECT_LINES = 50;

export interface ReadSessionOptions {
  fence: Fence;
  /**
   * Link a Claude Code subagent file to its parent: read the sidecar `.meta.json` and the parent
   * transcript (both through the fence, read-only) to fill `parentToolCallId` and `parentTurnKey`.
   * Default true. (Applied by `readSessionFile`; `readSessionBytes` never links.)
   */
  linkParent?: boolean;
  /** Resume at this byte offset; needs the `state` returned by the read that stopped there. */
  fromOffset?: number;
  state?: string;
}

export interface ReadSessionResult {
  /** The real path read (after symlinks, inside the fence). */
  path: string;
  runner: Runner | null;
  sessions: AtlasSession[];
  report: ParseReport;
  /** Bytes of complete lines consumed: the next `fromOffset`. */
  bytesConsumed: number;
  size: number;
  mtimeMs: number;
  /** Opaque: store it and pass it back with `fromOffset: bytesConsumed`. */
  state: string;
  /** sha256 of the first min(bytesConsumed, 64 KiB) bytes. */
  prefixHash: string;
  /** True when the read continued from the given state. */
  resumed: boolean;
  /** True when a state was given but the file no longer matched it (shrunk or rewritten), so it was re-read. */
  restarted: boolean;
}

/**
 * Version 2 embeds the accumulator state as JSON; version 1 (still read) held it as a string, which made
 * every save stringify (and escape) the whole state twice.
 */
interface SavedState {
  version: 1 | 2;
  prefixLength: number;
  prefixHash: string;
  accumulator: string | object | null;
}

/** The saved state as JSON, the accumulator's own JSON spliced in rather than stringified again. */
function savedStateJson(prefixLength: number, prefixHash: string, accumulatorJson: string | null): string {
  return `{"version":2,"prefixLength":${prefixLength},"prefixHash":${JSON.stringify(prefixHash)},"accumulator":${accumulatorJson ?? 'null'}}`;
}

/**
 * The result of a file read whole (compressed, or JSON spanning lines): it never resumes at an offset, so
 * its state holds no accumulator and `bytesConsumed` is the file's size (a grown file is read again).
 */
async function wholeFileResult(
  real: string,
  handle: FileHandle,
  size: number,
  mtimeMs: number,
  whole: WholeFileRead,
  restarted: boolean,
): Promise<ReadSessionResult> {
  const prefixLength = Math.min(size, PREFIX_HASH_BYTES);
  const prefixHash = await prefixHashOf(handle, prefixLength);
  const { sessions } = whole.accumulator.finalSnapshot();
  return {
    path: real,
    runner: whole.runner,
    sessions,
    report: whole.accumulator.report(),
    bytesConsumed: size,
    size,
    mtimeMs,
    state: savedStateJson(prefixLength, prefixHash, null),
    prefixHash,
    resumed: false,
    restarted,
  };
}

/** Fill `buffer[0, length)` from `position`; returns the bytes read (fewer only at end of file). */
async function readInto(handle: FileHandle, buffer: Buffer, position: number, length: number): Promise<number> {
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

async function readRange(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  return buffer.subarray(0, await readInto(handle, buffer, position, length));
}

async function prefixHashOf(handle: FileHandle, length: number): Promise<string> {
  return sha256Hex(await readRange(handle, 0, Math.min(length, PREFIX_HASH_BYTES)));
}

/** Through OpenSSL (the prefix is hashed on every read). */
function sha256Hex(bytes: Uint8Array): string {
  return nodeHashPort.sha256Hex(bytes);
}

function parseSaved(state: string | undefined): SavedState | null {
  if (state === undefined || state === '') return null;
  try {
    const parsed = JSON.parse(state) as SavedState;
    return parsed !== null && (parsed.version === 1 || parsed.version === 2) && typeof parsed.prefixHash === 'string'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/**
 * The first `DETECT_LINES` lines of `bytes[0, limit)`, as `toString().split('\n')` would give them, but
 * decoded one at a time as detection asks for them (it usually stops at the first line).
 */
function* headLines(bytes: Buffer, limit: number): Generator<string> {
  let start = 0;
  for (let count = 0; count < DETECT_LINES; count += 1) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline === -1 || newline >= limit) {
      yield bytes.toString('utf8', start, limit);
      return;
    }
    yield bytes.toString('utf8', start, newline);
    start = newline + 1;
  }
}

/**
 * Hands every complete line of `chunk[from, bytesRead)` to the accumulator, decoding each straight from
 * the chunk (no copy, no separate validity scan). Invalid bytes decode to U+FFFD, so only a line whose
 * text holds U+FFFD goes through the byte path, which tells a real U+FFFD from invalid UTF-8 and counts
 * it. (Per line, not per chunk: one non-ASCII character would make a whole-chunk string two-byte, and
 * both decoding and JSON.parse are slower on those.) Returns where the unterminated rest starts.
 */
function pushCompleteLines(accumulator: SessionAccumulator, chunk: Buffer, from: number, bytesRead: number): number {
  let start = from;
  while (start < bytesRead) {
    const newline = chunk.indexOf(0x0a, start);
    if (newline === -1 || newline >= bytesRead) break;
    const line = chunk.subarray(start, newline);
    const text = chunk.toString('utf8', start, newline);
    if (text.includes('\uFFFD')) accumulator.push(line, line.length);
    else accumulator.pushText(text, line);
    start = newline + 1;
  }
  return start;
}

/**
 * Read (or resume reading) one session file through the fence, opened read-only, without linking
 * to other files. Lines are split on `\n` at the byte level; an oversized line keeps nothing but is
 * still skipped whole.
 */
export async function readSessionBytes(requested: string, options: ReadSessionOptions): Promise<ReadSessionResult> {
  const { real, handle } = await options.fence.open(requested);
  try {
    const stat = await handle.stat();
    const size = stat.size;
    const saved = parseSaved(options.state);
    let accumulator: SessionAccumulator | null = null;
    let resumed = false;
    let restarted = false;
    if (saved !== null && saved.accumulator !== null && options.fromOffset !== undefined) {
      const candidate =
        typeof saved.accumulator === 'string'
          ? SessionAccumulator.restore(saved.accumulator)
          : SessionAccumulator.fromState(saved.accumulator);
      const fits =
        candidate.bytesConsumed === options.fromOffset &&
        size >= options.fromOffset &&
        (await prefixHashOf(handle, saved.prefixLength)) === saved.prefixHash;
      if (fits) {
        accumulator = candidate;
        resumed = true;
      } else {
        restarted = true;
      }
    } else if (options.state !== undefined && options.fromOffset !== undefined && options.fromOffset > 0) {
      restarted = true;
    }
    // Unzeroed: only the bytes each read filled are ever looked at.
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size, 1)));
    /** Bytes already in `chunk` for the position the loop starts at (the head read for detection). */
    let preloaded = 0;
    if (real.endsWith('.zst')) {
      const whole = await readCompressedLines(handle, size, real);
      return await wholeFileResult(
        real,
        handle,
        size,
        stat.mtimeMs,
        whole,
        options.state !== undefined && options.fromOffset !== undefined,
      );
    }
    if (accumulator === null) {
      preloaded = await readInto(handle, chunk, 0, Math.min(chunk.length, size));
      const runner = detectRunner(headLines(chunk, Math.min(preloaded, DETECT_BYTES)));
      if (runner === null && chunk.subarray(0, preloaded).toString('utf8').trim() !== '') {
        // Not one record per line: JSON values spanning lines are still records; anything else is refused.
        if (size > MAX_SPANNING_BYTES)
          throw new SessionFormatError(
            'ATLAS_TOO_LARGE',
            `not JSON Lines, and over ${MAX_SPANNING_BYTES} bytes to parse whole`,
          );
        const whole = readSpanningJson(await readRange(handle, 0, size), real);
        if (whole === null)
          throw new SessionFormatError('ATLAS_NOT_A_SESSION', 'no record written by Claude Code, Codex or pi');
        return await wholeFileResult(
          real,
          handle,
          size,
          stat.mtimeMs,
          whole,
          options.state !== undefined && options.fromOffset !== undefined,
        );
      }
      if (runner === null) {
        const emptyHash = sha256Hex(new Uint8Array());
        return {
          path: real,
          runner: null,
          sessions: [],
          report: emptyParseReport(),
          bytesConsumed: 0,
          size,
          mtimeMs: stat.mtimeMs,
          state: savedStateJson(0, emptyHash, null),
          prefixHash: emptyHash,
          resumed: false,
          restarted,
        };
      }
      accumulator = new SessionAccumulator(runner, real);
    }

    // The first 64 KiB, kept while streaming from offset 0, so the prefix hash needs no second read.
    const prefix = Buffer.allocUnsafe(PREFIX_HASH_BYTES);
    let prefixFilled = 0;
    let position = accumulator.bytesConsumed;
    let pieces: Buffer[] = [];
    let pendingLength = 0;
    while (position < size) {
      const bytesRead =
        preloaded > 0 ? preloaded : await readInto(handle, chunk, position, Math.min(chunk.length, size - position));
      preloaded = 0;
      if (bytesRead === 0) break;
      if (position === prefixFilled && prefixFilled < PREFIX_HASH_BYTES) {
        prefixFilled += chunk.copy(prefix, prefixFilled, 0, Math.min(bytesRead, PREFIX_HASH_BYTES - prefixFilled));
      }
      position += bytesRead;
      let start = 0;
      while (start < bytesRead) {
        if (pieces.length === 0 && pendingLength === 0) {
          start = pushCompleteLines(accumulator, chunk, start, bytesRead);
          if (start >= bytesRead) break;
        }
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 || newline >= bytesRead ? bytesRead : newline;
        const length = end - start;
        // Cap what is kept, never what is skipped: beyond the cap only the length is counted.
        if (pendingLength + length <= MAX_LINE_BYTES) pieces.push(Buffer.from(chunk.subarray(start, end)));
        else pieces = [];
        pendingLength += length;
        if (end === bytesRead) break;
        const line = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
        accumulator.push(pendingLength > MAX_LINE_BYTES ? line.subarray(0, 0) : line, pendingLength);
        pieces = [];
        pendingLength = 0;
        start = end + 1;
      }
    }
    const tail = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    accumulator.finish(pendingLength > MAX_LINE_BYTES ? tail.subarray(0, 0) : tail, pendingLength);

    // The accumulator is dropped after this read: its sessions may share its state instead of a copy.
    const { sessions, state: accumulatorState } = accumulator.finalSnapshot();

    const prefixLength = Math.min(accumulator.bytesConsumed, PREFIX_HASH_BYTES);
    const prefixHash =
      prefixFilled >= prefixLength
        ? sha256Hex(prefix.subarray(0, prefixLength))
        : await prefixHashOf(handle, prefixLength);
    return {
      path: real,
      runner: accumulator.runner,
      sessions,
      report: accumulator.report(),
      bytesConsumed: accumulator.bytesConsumed,
      size,
      mtimeMs: stat.mtimeMs,
      state: savedStateJson(prefixLength, prefixHash, accumulatorState),
      prefixHash,
      resumed,
      restarted,
    };
  } finally {
    await handle.close();
  }
}
