import type { Runner } from '../../protocol/index.ts';
import { splitGluedJson } from './line-decoder.ts';

const CODEX_KINDS = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state']);
const CLAUDE_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'progress',
  'attachment',
  'file-history-snapshot',
  'queue-operation',
  'last-prompt',
  'custom-title',
  'ai-title',
  'agent-name',
  'permission-mode',
  'turn_end',
]);

function parseFirstObject(line: string): Record<string, unknown> | null {
  const text = line.trim();
  if (text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const first = splitGluedJson(text).pieces[0];
    if (first === undefined) return null;
    try {
      value = JSON.parse(first);
    } catch {
      return null;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Which runner wrote one record, or null when the record says nothing decisive. */
export function runnerOfRecord(record: Record<string, unknown>): Runner | null {
  const type = record['type'];
  if (typeof type === 'string' && CODEX_KINDS.has(type) && typeof record['payload'] === 'object') return 'codex';
  // Legacy Codex: a bare header with instructions, or state markers.
  if (record['record_type'] === 'state') return 'codex';
  if (type === undefined && typeof record['id'] === 'string' && 'instructions' in record) return 'codex';
  if (type === 'session' && typeof record['id'] === 'string' && ('cwd' in record || 'version' in record)) return 'pi';
  if (type === 'message' && typeof record['message'] === 'object' && !('uuid' in record) && !('payload' in record))
    return 'pi';
  if (type === 'model_change' || type === 'thinking_level_change') return 'pi';
  if (typeof type === 'string' && CLAUDE_TYPES.has(type)) {
    if (
      'uuid' in record ||
      'sessionId' in record ||
      'parentUuid' in record ||
      'leafUuid' in record ||
      'messageId' in record
    ) {
      return 'claude-code';
    }
  }
  return null;
}

/**
 * Recognise a runner by a file's content, never its folder: the first record that says something
 * decisive wins. Returns null when none of the lines is recognisable.
 */
export function detectRunner(firstLines: Iterable<string>): Runner | null {
  for (const line of firstLines) {
    const record = parseFirstObject(line);
    if (record === null) continue;
    const runner = runnerOfRecord(record);
    if (runner !== null) return runner;
  }
  return null;
}
