import { asRecord, asString, textOf } from './tool-steps.ts';

/** Codex tool-call payloads: arguments (a JSON string or an object), commands, and what outputs say. */

export function outputText(output: unknown): { text: string; isError: boolean } {
  let text = typeof output === 'string' ? output : textOf(output) || asString(asRecord(output)['text']);
  let isError = false;
  if (typeof output === 'string' && output.startsWith('{')) {
    try {
      const parsed = asRecord(JSON.parse(output));
      if ('output' in parsed) {
        text = asString(parsed['output']);
        const code = asRecord(parsed['metadata'])['exit_code'];
        isError = typeof code === 'number' && code !== 0;
      }
    } catch {
      // Plain text that happens to start with a brace.
    }
  }
  const code = /(?:Process exited with code|Exit code:)\s*(-?\d+)/.exec(text.slice(0, 400));
  if (code !== null && Number(code[1]) !== 0) isError = true;
  return { text, isError };
}

/** What a newer `*_output` item returned, as text: its output, or the names of the tools a search found. */
export function outputSummary(item: Record<string, unknown>): string {
  if (item['output'] !== undefined) return outputText(item['output']).text;
  const tools = Array.isArray(item['tools']) ? item['tools'] : [];
  const names = tools
    .map((tool) => asString(asRecord(tool)['name']) || asString(asRecord(tool)['title']))
    .filter(Boolean);
  return tools.length > 0
    ? `${tools.length} tool${tools.length === 1 ? '' : 's'}: ${names.join(', ')}`
    : asString(item['status']);
}

export function parseArguments(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string') return asRecord(value);
  try {
    return asRecord(JSON.parse(value));
  } catch {
    return { raw: value };
  }
}

export function commandOf(input: Record<string, unknown>): string {
  const command = input['command'] ?? input['cmd'];
  if (Array.isArray(command)) return command.filter((part) => typeof part === 'string').join(' ');
  return asString(command);
}
