import type { CanonicalRequest, ToolDeclaration } from '../../protocol/index.ts';
import { MCP_NAME_SEPARATOR, MCP_SCHEMA_MAX_CHARS, MCP_TOOLS_PER_SERVER_MAX } from '../../protocol/index.ts';
import { canonicalJson } from './hashing.ts';

/** A tool as an MCP server lists it (`tools/list`), before Weft declares it. */
export interface McpListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface McpSkippedTool {
  tool: string;
  reason: string;
}

const DESCRIPTION_MAX = 2000;
/** Provider tool names (OpenAI, Anthropic) allow these characters and at most 64 of them. */
const NAME_CHARACTERS = /[^A-Za-z0-9_-]/g;
const NAME_MAX = 64;

/**
 * C35: one server's tools declared as a request offers them — `<server>__<tool>`, the description cut to the
 * declaration's bound, the input schema passed through — in the order the server listed them. A tool whose name
 * would not fit, repeats another, or whose schema is larger than `MCP_SCHEMA_MAX_CHARS` is left out and said so,
 * and at most `MCP_TOOLS_PER_SERVER_MAX` are declared, so one server cannot flood a request.
 */
export function mcpDeclarations(
  server: string,
  listed: readonly McpListedTool[],
): { tools: ToolDeclaration[]; skipped: McpSkippedTool[] } {
  const tools: ToolDeclaration[] = [];
  const skipped: McpSkippedTool[] = [];
  const names = new Set<string>();
  for (const tool of listed) {
    const name = mcpToolName(server, tool.name);
    const schemaSize = canonicalJson(tool.inputSchema).length;
    if (tools.length >= MCP_TOOLS_PER_SERVER_MAX)
      skipped.push({ tool: tool.name, reason: `more than ${MCP_TOOLS_PER_SERVER_MAX} tools` });
    else if (name.length > NAME_MAX)
      skipped.push({ tool: tool.name, reason: `its name is over ${NAME_MAX} characters` });
    else if (names.has(name)) skipped.push({ tool: tool.name, reason: 'another tool has the same name' });
    else if (schemaSize > MCP_SCHEMA_MAX_CHARS)
      skipped.push({
        tool: tool.name,
        reason: `its input schema is ${schemaSize} characters (over ${MCP_SCHEMA_MAX_CHARS})`,
      });
    else {
      names.add(name);
      tools.push({
        name,
        description: (tool.description ?? '').slice(0, DESCRIPTION_MAX),
        inputSchema: tool.inputSchema,
      });
    }
  }
  return { tools, skipped };
}

/** The name a request declares a server's tool by: `<server>__<tool>`, other characters made `_`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_NAME_SEPARATOR}${tool.replace(NAME_CHARACTERS, '_')}`;
}

/** Whether a declaration is an MCP tool's (Weft's own tool names never hold the separator). */
export function isMcpDeclaration(declaration: ToolDeclaration): boolean {
  return declaration.name.includes(MCP_NAME_SEPARATOR);
}

/** The configured server an MCP declaration belongs to (server names never hold the separator). */
export function mcpServerOf(name: string): string {
  return name.slice(0, name.indexOf(MCP_NAME_SEPARATOR));
}

/** The MCP tools a request offers, in its order. */
export function declaredMcpTools(request: CanonicalRequest): ToolDeclaration[] {
  return (request.toolDeclarations ?? []).filter(isMcpDeclaration);
}

/** Whether two declarations offer the model the same bytes. */
export function sameDeclaration(left: ToolDeclaration, right: ToolDeclaration): boolean {
  return canonicalJson(left) === canonicalJson(right);
}
