import { Tokenizer, TokenParser } from '@streamparser/json';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MCP_CONFIG_FILE, McpConfigSchema, type McpConfig, type McpError } from '../../protocol/index.ts';

export type McpConfigRead = { config: McpConfig; error: null } | { config: null; error: McpError };

const MCP_CONFIG_MAX_BYTES = 256 * 1024;

export const mcpConfigPath = (home: string) => join(home, MCP_CONFIG_FILE);

/**
 * Where JSON.parse gave up (V8 names no position for some errors): the offending token as @streamparser/json's
 * tokenizer finds it, else the end of the text (it stopped short).
 */
function errorOffset(text: string): number {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser();
  let last = 0;
  parser.onValue = () => {};
  tokenizer.onToken = (info) => {
    last = info.offset;
    parser.write(info);
  };
  try {
    tokenizer.write(text);
    tokenizer.end();
    return text.length;
  } catch (error) {
    const absolute = /absolute position "(\d+)"/.exec(error instanceof Error ? error.message : '');
    return absolute ? Number(absolute[1]) : last;
  }
}

/** Line and column of a character offset, for an error a person can find in their editor. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/**
 * C35: `$WEFT_HOME/mcp.json`, read at each use (the file is the source; Weft never writes it). No file means no
 * servers. A file that is not JSON or not the `mcpServers` shape gives `mcp-config-invalid` with where it broke,
 * and no server at all — never half a config.
 */
export async function readMcpConfig(path: string): Promise<McpConfigRead> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MCP_CONFIG_MAX_BYTES)
      return invalid(`${MCP_CONFIG_FILE} is ${bytes.length} bytes; at most ${MCP_CONFIG_MAX_BYTES} are read.`);
    text = bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: { mcpServers: {} }, error: null };
    return invalid(`${MCP_CONFIG_FILE} could not be read (${(error as NodeJS.ErrnoException).code ?? 'unknown'}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return invalid(
      `${MCP_CONFIG_FILE} is not valid JSON at ${lineAndColumn(text, errorOffset(text))}: ${message.slice(0, 200)}`,
    );
  }
  const result = McpConfigSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.map(String).join('.') || '(top level)';
    const message =
      issue.code === 'invalid_union' ? 'expected { command, args?, env? } or { url, headers? }' : issue.message;
    return invalid(`${MCP_CONFIG_FILE}: ${path}: ${message}`);
  }
  return { config: result.data, error: null };
}

function invalid(message: string): McpConfigRead {
  return { config: null, error: { code: 'mcp-config-invalid', message } };
}
