import { canonicalJson } from '../src/core/index.ts';
import { detectIndent, indentedJson, insertMember, objectSpan, removeMember, skipWhitespace } from './json-members.ts';

/** How a client should start `weft mcp`. */
export interface McpLaunch {
  command: string;
  args: string[];
  /** Environment `weft mcp` needs to see what this shell sees (a non-default WEFT_HOME, session roots). */
  env?: Record<string, string>;
}

export const SERVER_NAME = 'weft';

/** What an edit did; `null` text means the file should not exist. */
export type EditResult = { changed: boolean; text: string | null };

/**
 * `.mcp.json` (Claude Code, project scope): adds or replaces `mcpServers.weft` and leaves every other byte alone.
 * `original` null means the file does not exist.
 */
export function addToMcpJson(original: string | null, launch: McpLaunch): EditResult {
  const fresh = { type: 'stdio', command: launch.command, args: launch.args, ...envMember({}, launch.env) };
  if (original === null || original.trim() === '') {
    return { changed: true, text: `${JSON.stringify({ mcpServers: { [SERVER_NAME]: fresh } }, null, 2)}\n` };
  }
  const root = parseObject(original);
  const unit = detectIndent(original);
  const top = objectSpan(original, root);
  const servers = top.members.find((member) => member.key === 'mcpServers');
  if (!servers) {
    const member = `"mcpServers": {\n${unit}${unit}"${SERVER_NAME}": ${indentedJson(fresh, unit, unit + unit)}\n${unit}}`;
    return { changed: true, text: insertMember(original, top, member, unit, '') };
  }
  if (original[servers.valueStart] !== '{') throw new SyntaxError('"mcpServers" in .mcp.json is not an object');
  const serverSpan = objectSpan(original, servers.valueStart);
  const existing = serverSpan.members.find((member) => member.key === SERVER_NAME);
  if (existing) {
    const current = JSON.parse(original.slice(existing.valueStart, existing.valueEnd)) as unknown;
    // What the person added (other keys, env entries) stays; only the launch and the env weft needs are set.
    const kept = current !== null && typeof current === 'object' && !Array.isArray(current) ? current : {};
    const keptEnv = (kept as { env?: unknown }).env;
    const entry = {
      ...kept,
      type: 'stdio',
      command: launch.command,
      args: launch.args,
      ...envMember(
        keptEnv !== null && typeof keptEnv === 'object' ? (keptEnv as Record<string, unknown>) : {},
        launch.env,
      ),
    };
    if (canonicalJson(current) === canonicalJson(entry)) return { changed: false, text: original };
    const text =
      original.slice(0, existing.valueStart) +
      indentedJson(entry, unit, unit + unit) +
      original.slice(existing.valueEnd);
    return { changed: true, text };
  }
  const member = `"${SERVER_NAME}": ${indentedJson(fresh, unit, unit + unit)}`;
  return { changed: true, text: insertMember(original, serverSpan, member, unit + unit, unit) };
}

/** `{ env }` with the kept entries and weft's own on top, or nothing when both are empty. */
function envMember(
  kept: Record<string, unknown>,
  needed: Record<string, string> | undefined,
): { env?: Record<string, unknown> } {
  const env = { ...kept, ...needed };
  return Object.keys(env).length > 0 ? { env } : {};
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
  const lines = [`[mcp_servers.${SERVER_NAME}]`, ...launchLines(launch), ''];
  const env = Object.entries(launch.env ?? {});
  if (env.length > 0)
    lines.push(`[mcp_servers.${SERVER_NAME}.env]`, ...env.map(([key, value]) => tomlPair(key, value)), '');
  return lines.join('\n');
}

function launchLines(launch: McpLaunch): string[] {
  return [
    `command = ${JSON.stringify(launch.command)}`,
    `args = [${launch.args.map((argument) => JSON.stringify(argument)).join(', ')}]`,
  ];
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const tomlKey = (key: string) => (BARE_KEY.test(key) ? key : JSON.stringify(key));
const tomlPair = (key: string, value: string) => `${tomlKey(key)} = ${JSON.stringify(value)}`;

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

/** Adds (or updates) `[mcp_servers.weft]` as text; every other line of config.toml stays as it was. */
export function addToCodexToml(original: string | null, launch: McpLaunch): EditResult {
  const table = codexTable(launch);
  if (original === null || original.trim() === '') return { changed: true, text: table };
  const found = findTable(original);
  if (found) {
    const block = original.slice(found.start, found.end);
    const updated = updateTable(block, launch);
    return updated === block
      ? { changed: false, text: original }
      : { changed: true, text: original.slice(0, found.start) + updated + original.slice(found.end) };
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

const ENV_SUBTABLE =
  /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*("weft"|weft)[ \t]*\.[ \t]*("env"|env)[ \t]*\][ \t]*(#.*)?$/;
const KEY_LINE = /^[ \t]*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)[ \t]*=/;

/** The key a `key = value` line sets (unquoted), or null. */
function lineKey(line: string): string | null {
  const match = KEY_LINE.exec(line);
  if (!match) return null;
  return match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : match[1]!;
}

/** Whether brackets opened on the lines so far are all closed (strings skipped), for multi-line arrays. */
function bracketDepth(text: string): number {
  let depth = 0;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|#.*$|[[\]{}]/gm)) {
    const token = match[0];
    if (token === '[' || token === '{') depth += 1;
    else if (token === ']' || token === '}') depth -= 1;
  }
  return depth;
}

/**
 * The weft table with `command` and `args` set to this launch and the env weft needs set in its env
 * (a `[mcp_servers.weft.env]` subtable, or an inline `env = {…}` the person wrote); every other line,
 * key and subtable the person added is kept as written.
 */
function updateTable(block: string, launch: McpLaunch): string {
  const lines = block.split('\n');
  const header = lines[0]!;
  const output: string[] = [header, ...launchLines(launch)];
  const env = Object.entries(launch.env ?? {});
  let section: 'main' | 'env' | 'other' = 'main';
  let envDone = env.length === 0;
  const writtenInEnv = new Set<string>();
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (ANY_HEADER.test(line)) {
      section = ENV_SUBTABLE.test(line) ? 'env' : 'other';
      output.push(line);
      continue;
    }
    const key = lineKey(line);
    if (section === 'main' && (key === 'command' || key === 'args')) {
      // Skip the old value, also an array spread over several lines.
      let value = line;
      while (bracketDepth(value) > 0 && index + 1 < lines.length) value += '\n' + lines[++index]!;
      continue;
    }
    if (section === 'main' && key === 'env' && !envDone) {
      let value = line;
      while (bracketDepth(value) > 0 && index + 1 < lines.length) value += '\n' + lines[++index]!;
      output.push(mergeInlineEnv(value, launch.env ?? {}));
      envDone = true;
      continue;
    }
    if (section === 'env' && key !== null && Object.hasOwn(launch.env ?? {}, key)) {
      output.push(tomlPair(key, launch.env![key]!));
      writtenInEnv.add(key);
      continue;
    }
    output.push(line);
  }
  if (!envDone) {
    const missing = env.filter(([key]) => !writtenInEnv.has(key)).map(([key, value]) => tomlPair(key, value));
    const envHeaderIndex = output.findIndex((line) => ENV_SUBTABLE.test(line));
    if (envHeaderIndex >= 0) {
      // After the subtable's last key line.
      let at = envHeaderIndex + 1;
      while (at < output.length && !ANY_HEADER.test(output[at]!)) at += 1;
      while (at > envHeaderIndex + 1 && output[at - 1]!.trim() === '') at -= 1;
      output.splice(at, 0, ...missing);
    } else {
      // A new subtable right after the main table's keys.
      let at = 1;
      while (at < output.length && !ANY_HEADER.test(output[at]!)) at += 1;
      while (at > 1 && output[at - 1]!.trim() === '') at -= 1;
      output.splice(at, 0, `[mcp_servers.${SERVER_NAME}.env]`, ...missing);
    }
  }
  return output.join('\n');
}

const INLINE_PAIR = /\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*")\s*(,|$)/y;

/** `env = { A = "1", … }` with weft's entries set; refused when it is more than string pairs. */
function mergeInlineEnv(line: string, needed: Record<string, string>): string {
  const open = line.indexOf('{');
  const close = line.lastIndexOf('}');
  if (open < 0 || close < open) throw new SyntaxError('mcp_servers.weft.env in config.toml is not an inline table');
  const body = line.slice(open + 1, close);
  const pairs = new Map<string, string>();
  INLINE_PAIR.lastIndex = 0;
  while (INLINE_PAIR.lastIndex < body.length && body.slice(INLINE_PAIR.lastIndex).trim() !== '') {
    const match = INLINE_PAIR.exec(body);
    if (!match)
      throw new SyntaxError(
        'mcp_servers.weft.env in config.toml holds more than "NAME" = "value" pairs; write it as a [mcp_servers.weft.env] table',
      );
    pairs.set(
      match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : match[1]!,
      JSON.parse(match[2]!) as string,
    );
  }
  for (const [key, value] of Object.entries(needed)) pairs.set(key, value);
  const inner = [...pairs].map(([key, value]) => tomlPair(key, value)).join(', ');
  return `${line.slice(0, open)}{ ${inner} }${line.slice(close + 1)}`;
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
