import { z } from 'zod';
import { ToolDeclarationSchema } from './chat-tools.ts';

/**
 * C35: MCP servers the chat model may call, from `$WEFT_HOME/mcp.json` in the common `mcpServers` shape. The file
 * is the source: Weft reads it, never writes it. Env values and header values stay on the server (they may hold
 * keys); what the API returns names them only.
 */
export const MCP_CONFIG_FILE = 'mcp.json';
/** Servers one config may name, tools one server may offer, and the size of one tool's input schema. */
export const MCP_SERVERS_MAX = 16;
export const MCP_TOOLS_PER_SERVER_MAX = 32;
export const MCP_SCHEMA_MAX_CHARS = 8_000;
/** An MCP tool is declared as `<server>__<tool>`; Weft's own tools never hold the separator. */
export const MCP_NAME_SEPARATOR = '__';
/** MCP tools one question may switch on. */
export const MCP_NODE_TOOLS_MAX = 32;

const StringMap = z.record(z.string(), z.string());

export const McpStdioServerSchema = z.object({
  command: z.string().min(1).max(1000),
  args: z.array(z.string().max(4000)).max(100).optional(),
  env: StringMap.optional(),
  cwd: z.string().max(1000).optional(),
});

export const McpHttpServerSchema = z.object({
  url: z
    .string()
    .max(2000)
    .url()
    .refine((url) => /^https?:\/\//i.test(url), 'An MCP server URL must be http or https.'),
  headers: StringMap.optional(),
});

/** `type` is accepted as other clients write it; `command` or `url` decides the transport. */
const TransportType = z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp']).optional();
export const McpServerConfigSchema = z.union([
  McpStdioServerSchema.extend({ type: TransportType }),
  McpHttpServerSchema.extend({ type: TransportType }),
]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

export const McpConfigSchema = z.object({
  mcpServers: z
    .record(
      z
        .string()
        .min(1)
        .max(32)
        .regex(/^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$/, 'A server name may hold letters, digits, - and single _.'),
      McpServerConfigSchema,
    )
    .refine((servers) => Object.keys(servers).length <= MCP_SERVERS_MAX, `At most ${MCP_SERVERS_MAX} servers.`),
});
export type McpConfig = z.infer<typeof McpConfigSchema>;

export const McpErrorSchema = z.object({ code: z.string().max(64), message: z.string().max(2000) });
export type McpError = z.infer<typeof McpErrorSchema>;

/** One configured server as the UI sees it: how it is reached, never an env or header value. */
export const McpServerSummarySchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** The command line (stdio) or the URL (http). */
  target: z.string(),
  /** Names of the env variables (stdio) or headers (http) it is given; their values are never sent. */
  secretNames: z.array(z.string()),
});
export type McpServerSummary = z.infer<typeof McpServerSummarySchema>;

/** `GET /api/mcp/servers`: the config as read (nothing spawned). A malformed file gives `error` and no servers. */
export const McpServersResponseSchema = z.object({
  configPath: z.string(),
  error: McpErrorSchema.nullable(),
  servers: z.array(McpServerSummarySchema),
});
export type McpServersResponse = z.infer<typeof McpServersResponseSchema>;

/** One server's tools, declared as a request would declare them; `skipped` counts tools left out (bounds). */
export const McpServerToolsSchema = z.object({
  name: z.string(),
  tools: z.array(ToolDeclarationSchema),
  skipped: z.array(z.object({ tool: z.string(), reason: z.string() })),
  error: McpErrorSchema.nullable(),
});
export type McpServerTools = z.infer<typeof McpServerToolsSchema>;

/** `GET /api/mcp/tools`: each configured server started (stdio) or reached (http) and asked for its tools. */
export const McpToolsResponseSchema = z.object({
  error: McpErrorSchema.nullable(),
  servers: z.array(McpServerToolsSchema),
});
export type McpToolsResponse = z.infer<typeof McpToolsResponseSchema>;
