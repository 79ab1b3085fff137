import { nodeHashPort } from '../hash/index.ts';
import path from 'node:path';
import type { ToolOp } from '../../protocol/index.ts';
import { getOwn } from './own-record.ts';
import type { StepInput } from './session-builder.ts';

/**
 * Tool names of all three runners (lower-cased) → operation and the input keys that hold paths.
 * Claude Code: Read, Write, Edit, MultiEdit, NotebookEdit, Bash, Glob, Grep, LS, WebFetch, WebSearch, Task/Agent.
 * Codex: shell, exec_command, local_shell_call, apply_patch, view_image, web_search, spawn_agent…
 * pi: read, write, edit, bash, grep, find, ls.
 */
const TOOLS: Record<string, { op: ToolOp; pathKeys: string[] }> = {
  read: { op: 'read', pathKeys: ['file_path', 'path', 'filePath'] },
  notebookread: { op: 'read', pathKeys: ['notebook_path'] },
  read_file: { op: 'read', pathKeys: ['path', 'file_path'] },
  view_image: { op: 'read', pathKeys: ['path'] },
  view_image_tool: { op: 'read', pathKeys: ['path'] },
  ls: { op: 'search', pathKeys: ['path'] },
  list_dir: { op: 'search', pathKeys: ['path'] },
  write: { op: 'write', pathKeys: ['file_path', 'path', 'filePath'] },
  write_file: { op: 'write', pathKeys: ['path', 'file_path'] },
  edit: { op: 'edit', pathKeys: ['file_path', 'path', 'filePath'] },
  multiedit: { op: 'edit', pathKeys: ['file_path', 'path'] },
  notebookedit: { op: 'edit', pathKeys: ['notebook_path'] },
  str_replace_editor: { op: 'edit', pathKeys: ['path'] },
  apply_patch: { op: 'edit', pathKeys: [] },
  bash: { op: 'run', pathKeys: [] },
  shell: { op: 'run', pathKeys: [] },
  exec_command: { op: 'run', pathKeys: [] },
  local_shell_call: { op: 'run', pathKeys: [] },
  write_stdin: { op: 'run', pathKeys: [] },
  bashoutput: { op: 'run', pathKeys: [] },
  killshell: { op: 'run', pathKeys: [] },
  glob: { op: 'search', pathKeys: ['path'] },
  grep: { op: 'search', pathKeys: ['path'] },
  find: { op: 'search', pathKeys: ['path'] },
  toolsearch: { op: 'search', pathKeys: [] },
  websearch: { op: 'search', pathKeys: [] },
  web_search: { op: 'search', pathKeys: [] },
  web_search_call: { op: 'search', pathKeys: [] },
  webfetch: { op: 'fetch', pathKeys: [] },
  fetch: { op: 'fetch', pathKeys: [] },
  task: { op: 'agent', pathKeys: [] },
  agent: { op: 'agent', pathKeys: [] },
  spawn_agent: { op: 'agent', pathKeys: [] },
  send_input: { op: 'agent', pathKeys: [] },
  wait: { op: 'agent', pathKeys: [] },
  wait_agent: { op: 'agent', pathKeys: [] },
  close_agent: { op: 'agent', pathKeys: [] },
};

/** The session user's home, inferred from a cwd under `/Users/<name>` or `/home/<name>` (or `/root`). */
function homeOf(cwd: string | null): string | null {
  if (cwd === null) return null;
  return /^(\/(?:Users|home)\/[^/]+|\/root)(?:\/|$)/.exec(cwd)?.[1] ?? null;
}

/**
 * Resolve a path against the working directory. `~/…` expands to the home inferred from the cwd
 * (the session may come from another machine, so never this process's home); when none can be
 * inferred the `~` path is kept as written.
 */
export function resolveAgainst(cwd: string | null, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') return trimmed;
  if (trimmed === '~' || trimmed.startsWith('~/')) {
    const home = homeOf(cwd);
    return home === null ? trimmed : path.join(home, trimmed.slice(1));
  }
  if (path.isAbsolute(trimmed) || /^[A-Za-z]:[\\/]/.test(trimmed) || trimmed.startsWith('~'))
    return path.normalize(trimmed);
  return cwd === null ? path.normalize(trimmed) : path.resolve(cwd, trimmed);
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A one-line human summary of a tool input. */
export function summarizeInput(name: string, input: Record<string, unknown>): string {
  const preferred = [
    'command',
    'cmd',
    'file_path',
    'path',
    'notebook_path',
    'pattern',
    'url',
    'query',
    'description',
    'prompt',
  ];
  for (const key of preferred) {
    const value = input[key];
    if (typeof value === 'string' && value.length > 0) return `${key}: ${value.replace(/\s+/g, ' ')}`;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return `${key}: ${value.join(' ')}`;
  }
  const json = JSON.stringify(input) ?? '';
  return json === '{}' ? name : json;
}

/** Whitespace-collapsed head of a prompt: how a subagent's first prompt is matched to the call that sent it. */
export function promptKey(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 120);
}

/** `<type>: <description> — prompt: <prompt>` for Task/Agent-style calls; null when neither field is there. */
function summarizeAgentInput(input: Record<string, unknown>): string | null {
  const type = asString(input['subagent_type']) || asString(input['agent_type']) || 'agent';
  const description = asString(input['description']);
  const prompt = asString(input['prompt']) || asString(input['message']);
  if (description === '' && prompt === '') return null;
  const head = description === '' ? type : `${type}: ${description}`;
  return prompt === '' ? head : `${head} — prompt: ${promptKey(prompt)}`;
}

/** Classify one tool call into a step (op and absolute files). */
export function classifyTool(
  callId: string | null,
  name: string,
  input: Record<string, unknown>,
  cwd: string | null,
): StepInput {
  const lower = name.toLowerCase();
  const known = getOwn(TOOLS, lower);
  let op: ToolOp = known?.op ?? 'other';
  const files: string[] = [];
  const base = typeof input['workdir'] === 'string' ? resolveAgainst(cwd, input['workdir']) : cwd;
  for (const key of known?.pathKeys ?? []) {
    const value = input[key];
    if (typeof value === 'string' && value.length > 0) {
      files.push(resolveAgainst(base, value));
      break;
    }
  }
  if (lower.startsWith('mcp__')) op = 'other';
  const referenceText = JSON.stringify(input) ?? '';
  const inputSummary =
    op === 'agent' ? (summarizeAgentInput(input) ?? summarizeInput(name, input)) : summarizeInput(name, input);
  return { callId, name, inputSummary, op, files, referenceText };
}

/** Files named by an `apply_patch` body, grouped by operation. */
export function parseApplyPatch(patch: string, cwd: string | null): { op: ToolOp; files: string[] }[] {
  const groups = new Map<ToolOp, string[]>();
  const add = (op: ToolOp, file: string): void => {
    const list = groups.get(op) ?? [];
    const resolved = resolveAgainst(cwd, file);
    if (!list.includes(resolved)) list.push(resolved);
    groups.set(op, list);
  };
  for (const line of patch.split('\n')) {
    const match = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\s*$/.exec(line);
    if (match === null) continue;
    const kind = match[1]!;
    add(
      kind === 'Add File' ? 'write' : kind === 'Delete File' ? 'delete' : kind === 'Move to' ? 'write' : 'edit',
      match[2]!,
    );
  }
  return [...groups.entries()].map(([op, files]) => ({ op, files }));
}

/**
 * A stable id for a record that has none: its timestamp plus a hash of its bytes, so appending
 * lines never changes it. Identical lines with identical timestamps get an ordinal suffix by the caller.
 */
export function derivedRecordId(timestamp: unknown, line: Uint8Array): string {
  const time = typeof timestamp === 'string' || typeof timestamp === 'number' ? String(timestamp) : 'notime';
  return `${time}~${nodeHashPort.sha256Hex(line).slice(0, 12)}`;
}

/** Text of content that is a string or an array of `{type:'text', text}` blocks. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    const record = asRecord(block);
    const type = record['type'];
    if ((type === 'text' || type === 'input_text' || type === 'output_text') && typeof record['text'] === 'string')
      parts.push(record['text']);
  }
  return parts.join('\n');
}
