import { canonicalJson } from '../src/core/hashing.ts';
import { detectIndent, indentedJson, insertMember, objectSpan, removeMember, skipWhitespace } from './json-members.ts';

/** How a client should start `weft mcp`. */
export interface McpLaunch {
  command: string;
  args: string[];
}

export const SERVER_NAME = 'weft';

/** What an edit did; `null` text means the file should not exist. */
export type EditResult = { changed: boolean; text: string | null };

/**
 * `.mcp.json` (Claude Code, project scope): adds or replaces `mcpServers.weft` and leaves every other byte alone.
 * `original` null means the file does not exist.
 */
export function addToMcpJson(original: string | null, launch: McpLaunch): EditResult {
  const entry = { type: 'stdio', command: launch.command, args: launch.args };
  if (original === null || original.trim() === '') {
    return { changed: true, text: `${JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2)}\n` };
  }
  const root = parseObject(original);
  const unit = detectIndent(original);
  const top = objectSpan(original, root);
  const servers = top.members.find((member) => member.key === 'mcpServers');
  if (!servers) {
    const member = `"mcpServers": {\n${unit}${unit}"${SERVER_NAME}": ${indentedJson(entry, unit, unit + unit)}\n${unit}}`;
    return { changed: true, text: insertMember(original, top, member, unit, '') };
  }
  if (original[servers.valueStart] !== '{') throw new SyntaxError('"mcpServers" in .mcp.json is not an object');
  const serverSpan = objectSpan(original, servers.valueStart);
  const existing = serverSpan.members.find((member) => member.key === SERVER_NAME);
  if (existing) {
    const current = JSON.parse(original.slice(existing.valueStart, existing.valueEnd)) as unknown;
    if (canonicalJson(current) === canonicalJson(entry)) return { changed: false, text: original };
    const text =
      original.slice(0, existing.valueStart) +
      indentedJson(entry, unit, unit + unit) +
      original.slice(existing.valueEnd);
    return { changed: true, text };
  }
  const member = `"${SERVER_NAME}": ${indentedJson(entry, unit, unit + unit)}`;
  return { changed: true, text: insertMember(original, serverSpan, member, unit + unit, unit) };
}

/** Removes `mcpServers.weft`; an `mcpServers` left empty goes too, and a file left empty is deleted. */
export function removeFromMcpJson(original: string | null): EditResult {
  if (original === null) return { changed: false, text: null };
  const root = parseObject(original);
  const top = objectSpan(original, root);
  const servers = top.members.find((member) => member.key === 'mcpServers');
  if (!servers || original[servers.valueStart] !== '{') return { changed: false, text: original };
  const serverSpan = objectSpan(original, servers.valueStart);
  if (!serverSpan.members.some((member) => member.key === SERVER_NAME)) return { changed: false, text: original };
  if (serverSpan.members.length > 1) return { changed: true, text: removeMember(original, serverSpan, SERVER_NAME) };
  if (top.members.length === 1) return { changed: true, text: null };
  return { changed: true, text: removeMember(original, top, 'mcpServers') };
}

function parseObject(text: string): number {
  const value = JSON.parse(text) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new SyntaxError('.mcp.json is not a JSON object');
  return skipWhitespace(text, 0);
}

const TABLE_HEADER = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*("weft"|weft)[ \t]*\][ \t]*(#.*)?$/;
const SUBTABLE_HEADER = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*("weft"|weft)[ \t]*\./;
const ANY_HEADER = /^[ \t]*\[/;

/** The `[mcp_servers.weft]` table for Codex's config.toml (TOML basic strings are JSON-compatible here). */
export function codexTable(launch: McpLaunch): string {
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${JSON.stringify(launch.command)}`,
    `args = [${launch.args.map((argument) => JSON.stringify(argument)).join(', ')}]`,
    '',
  ].join('\n');
}

/** Start and end offsets of the weft table (with its subtables), or null. */
function findTable(text: string): { start: number; end: number } | null {
  const lines = text.split('\n');
  let offset = 0;
  let start = -1;
  for (const line of lines) {
    if (start === -1 && TABLE_HEADER.test(line)) start = offset;
    else if (start !== -1 && ANY_HEADER.test(line) && !SUBTABLE_HEADER.test(line)) return { start, end: offset };
    offset += line.length + 1;
  }
  return start === -1 ? null : { start, end: text.length };
}

/** Adds (or replaces) `[mcp_servers.weft]` as text; every other line of config.toml stays as it was. */
export function addToCodexToml(original: string | null, launch: McpLaunch): EditResult {
  const table = codexTable(launch);
  if (original === null || original.trim() === '') return { changed: true, text: table };
  const found = findTable(original);
  if (found) {
    const block = original.slice(found.start, found.end);
    const trailing = /\n*$/.exec(block)![0];
    const body = block.slice(0, block.length - trailing.length) + '\n';
    if (body === table) return { changed: false, text: original };
    return {
      changed: true,
      text: original.slice(0, found.start) + table + trailing.slice(1) + original.slice(found.end),
    };
  }
  if (definesWeftOutsideTable(original)) {
    // A second definition would be a duplicate key, and Codex would refuse its whole config.
    throw new SyntaxError(
      'config.toml already defines mcp_servers.weft inline or with dotted keys; remove it, or write it as a [mcp_servers.weft] table',
    );
  }
  const separator = original.endsWith('\n') ? '\n' : '\n\n';
  return { changed: true, text: original + separator + table };
}

const SERVERS_HEADER = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\][ \t]*(#.*)?$/;
const WEFT_KEY = /^[ \t]*("weft"|weft)[ \t]*[.=]/;
const DOTTED_WEFT_KEY = /^[ \t]*mcp_servers[ \t]*\.[ \t]*("weft"|weft)[ \t]*[.=]/;

/** `weft = {…}` under `[mcp_servers]`, or `mcp_servers.weft.… = …` before any table. */
function definesWeftOutsideTable(text: string): boolean {
  let table: 'root' | 'servers' | 'other' = 'root';
  for (const line of text.split('\n')) {
    if (SERVERS_HEADER.test(line)) table = 'servers';
    else if (ANY_HEADER.test(line)) table = 'other';
    else if ((table === 'servers' && WEFT_KEY.test(line)) || (table === 'root' && DOTTED_WEFT_KEY.test(line)))
      return true;
  }
  return false;
}

export function removeFromCodexToml(original: string | null): EditResult {
  if (original === null) return { changed: false, text: null };
  const found = findTable(original);
  if (!found) return { changed: false, text: original };
  let start = found.start;
  // The blank line `addToCodexToml` put before the table goes with it.
  if (found.end === original.length && original.slice(0, start).endsWith('\n\n')) start -= 1;
  const text = original.slice(0, start) + original.slice(found.end);
  return { changed: true, text: text.trim() === '' ? null : text };
}
