import { Buffer, isUtf8 } from 'node:buffer';
import type { ParseReport } from '../../protocol/index.ts';

/** Lines longer than this are skipped (counted as oversized); what is skipped is never capped. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

const lenientUtf8 = new TextDecoder('utf-8', { fatal: false });

/** Decode bytes as UTF-8; invalid sequences become U+FFFD and are counted. */
export function decodeUtf8(bytes: Uint8Array, report: ParseReport): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  report.invalidUtf8 += 1;
  return lenientUtf8.decode(bytes);
}

/**
 * Split text holding one or more JSON values written back to back (`{…}{…}`) into pieces,
 * by tracking string state and bracket depth. Text between values that is not whitespace ends the scan.
 */
export function splitGluedJson(text: string): { pieces: string[]; rest: string } {
  const pieces: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (escaped) escaped = false;
      else if (char === 0x5c) escaped = true;
      else if (char === 0x22) inString = false;
      continue;
    }
    if (start === -1) {
      // Whitespace between values (a newline only in a file read whole: a line holds none).
      if (char === 0x20 || char === 0x09 || char === 0x0d || char === 0x0a) continue;
      if (char !== 0x7b && char !== 0x5b) return { pieces, rest: text.slice(index) };
      start = index;
    }
    if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) depth += 1;
    else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
      if (depth === 0) {
        pieces.push(text.slice(start, index + 1));
        start = -1;
      }
    }
  }
  return { pieces, rest: start === -1 ? '' : text.slice(start) };
}

/**
 * Turn one physical line (without its `\n`) into the JSON objects it holds. Every oddity is counted:
 * empty lines, invalid UTF-8, invalid JSON, glued objects, non-object values.
 */
export function decodeLine(line: Uint8Array, report: ParseReport): Record<string, unknown>[] {
  report.lines += 1;
  return decodeText(decodeUtf8(line, report), report);
}

/**
 * `decodeLine` for a line the caller already decoded from valid UTF-8 (the reader decodes a whole chunk
 * of complete lines at once instead of each line on its own).
 */
export function decodeLineText(text: string, report: ParseReport): Record<string, unknown>[] {
  report.lines += 1;
  return decodeText(text, report);
}

function decodeText(line: string, report: ParseReport): Record<string, unknown>[] {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '') {
    report.emptyLines += 1;
    return [];
  }
  const values: unknown[] = [];
  try {
    values.push(JSON.parse(text));
  } catch {
    const { pieces, rest } = splitGluedJson(text);
    let failed = rest.trim() !== '';
    for (const piece of pieces) {
      try {
        values.push(JSON.parse(piece));
      } catch {
        failed = true;
      }
    }
    if (values.length > 1) report.gluedObjects += values.length - 1;
    if (failed) report.invalidJson += 1;
  }
  const objects: Record<string, unknown>[] = [];
  for (const value of values) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      objects.push(value as Record<string, unknown>);
    else report.wrongShape += 1;
  }
  report.records += objects.length;
  return objects;
}
