import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  McpConfig,
  McpError,
  McpServerConfig,
  McpServersResponse,
  McpServerTools,
  McpToolsResponse,
  ToolDeclaration,
} from '../../protocol/index.ts';
import { MCP_TOOLS_PER_SERVER_MAX } from '../../protocol/index.ts';
import {
  canonicalJson,
  mcpDeclarations,
  mcpServerOf,
  mcpToolName,
  sameDeclaration,
  type McpListedTool,
} from '../../src/core/index.ts';
import type { ToolOutcome } from './tool-outcome.ts';
import { readMcpConfig, type McpConfigRead } from './mcp-config-file.ts';
import { secretArgs, secretUrlParts, shownCommand, shownUrl } from './mcp-target.ts';

export interface McpClientsOptions {
  /** `$WEFT_HOME/mcp.json`. */
  configPath: string;
  /** Starting a server and its `initialize` (default 15 s). */
  connectTimeoutMs?: number;
  /** One `tools/list` or `tools/call` (default 60 s). */
  requestTimeoutMs?: number;
  /** A server that failed or stopped: its name and a coded reason, never an env or header value. */
  onFailure?: (server: string, error: McpError) => void;
}

/** Why an ask offering MCP tools is refused before any model call (codes of `answer-failed`). */
export interface McpRefusal {
  code: 'mcp-tool-changed' | 'mcp-server-unknown' | 'mcp-config-invalid';
  message: string;
}

/** A declared MCP tool bound to the live tool it calls, or to why it cannot be called (the model is told). */
export interface McpBinding {
  declaration: ToolDeclaration;
  server: string;
  /** The tool's own name on its server; null when the server could not be reached. */
  tool: string | null;
  failure: McpError | null;
}

interface Connection {
  /** The server's config as connected; a changed config reconnects. */
  key: string;
  client: Promise<Client>;
}

const isStdio = (server: McpServerConfig): server is Extract<McpServerConfig, { command: string }> =>
  'command' in server;

/**
 * Every env and header value of the config, a header's value also without its `Bearer ` prefix (a server may echo
 * just the token), a URL's query values and password, and the values after key flags in args: they may be keys, so they are cut from anything Weft
 * keeps. Longest first, so a value is never left half-cut by a shorter one inside it.
 */
function secretsOf(config: McpConfig | null): string[] {
  const values: string[] = [];
  for (const server of Object.values(config?.mcpServers ?? {}))
    if (isStdio(server)) values.push(...Object.values(server.env ?? {}), ...secretArgs(server.args ?? []));
    else {
      values.push(...secretUrlParts(server.url));
      for (const value of Object.values(server.headers ?? {}))
        values.push(value, value.replace(/^\s*(?:bearer|basic|token)\s+/i, ''));
    }
  return [...new Set(values.filter((value) => value.length >= 4))].sort(
    (first, second) => second.length - first.length,
  );
}

function failureOf(error: unknown, code = 'mcp-server-failed'): McpError {
  const message = error instanceof Error ? error.message : String(error);
  return { code, message: message.slice(0, 500) };
}

/**
 * C35: the MCP servers of `$WEFT_HOME/mcp.json`, through the SDK's client. A server is started (stdio) or reached
 * (streamable HTTP) only when it is needed — its tools listed, or a question that offers them asked — and stays
 * connected until it stops (then the next use starts it again) or `close` ends every child process.
 */
export class McpClients {
  private readonly connections = new Map<string, Connection>();
  private readonly connectTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private secrets: string[] = [];

  constructor(private readonly options: McpClientsOptions) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  }

  private async config(): Promise<McpConfigRead> {
    const read = await readMcpConfig(this.options.configPath);
    this.secrets = secretsOf(read.config);
    return read;
  }

  /** Cuts every env and header value of the config out of a text (a tool may echo its environment). */
  scrub(text: string): string {
    return this.secrets.reduce((scrubbed, secret) => scrubbed.split(secret).join('[redacted]'), text);
  }

  /** The configured servers, as the file says; nothing is started. */
  async servers(): Promise<McpServersResponse> {
    const { config, error } = await this.config();
    return {
      configPath: this.options.configPath,
      error,
      servers: Object.entries(config?.mcpServers ?? {}).map(([name, server]) =>
        isStdio(server)
          ? {
              name,
              transport: 'stdio' as const,
              target: shownCommand(server.command, server.args ?? []),
              secretNames: Object.keys(server.env ?? {}),
            }
          : {
              name,
              transport: 'http' as const,
              target: shownUrl(server.url),
              secretNames: Object.keys(server.headers ?? {}),
            },
      ),
    };
  }

  /** Each configured server's tools as a request declares them (starting the servers not yet running). */
  async tools(): Promise<McpToolsResponse> {
    const { config, error } = await this.config();
    if (!config) return { error, servers: [] };
    const servers = await Promise.all(
      Object.entries(config.mcpServers).map(([name, server]) => this.serverTools(name, server)),
    );
    return { error: null, servers };
  }

  private async serverTools(name: string, server: McpServerConfig): Promise<McpServerTools> {
    try {
      return { name, ...mcpDeclarations(name, await this.list(name, server)), error: null };
    } catch (error) {
      const failure = failureOf(error);
      this.options.onFailure?.(name, { code: failure.code, message: this.scrub(failure.message) });
      return { name, tools: [], skipped: [], error: { code: failure.code, message: this.scrub(failure.message) } };
    }
  }

  /** The server's tools, each with its own name and its listed shape (bounded: a few pages at most). */
  private async list(name: string, server: McpServerConfig): Promise<McpListedTool[]> {
    const client = await this.client(name, server);
    const tools: McpListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 4 && tools.length <= MCP_TOOLS_PER_SERVER_MAX; page += 1) {
      const listed = await client.listTools(cursor ? { cursor } : {}, { timeout: this.requestTimeoutMs });
      for (const tool of listed.tools)
        tools.push({
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema,
        });
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /**
   * Binds the MCP declarations of a request to their live tools. A server not in the config, or a tool whose
   * declaration differs from what its server lists now, is refused (`mcp-tool-changed`): the model is never offered
   * other bytes than the ones that run. A server that cannot be reached is not a refusal: its calls answer the
   * model with the coded failure.
   */
  async bind(declarations: readonly ToolDeclaration[]): Promise<{ bindings: McpBinding[] } | { refusal: McpRefusal }> {
    if (declarations.length === 0) return { bindings: [] };
    const { config, error } = await this.config();
    if (!config) return { refusal: { code: 'mcp-config-invalid', message: error.message } };
    const byServer = new Map<string, McpListedTool[] | McpError>();
    for (const name of new Set(declarations.map((declaration) => mcpServerOf(declaration.name)))) {
      const server = config.mcpServers[name];
      if (!server)
        return { refusal: { code: 'mcp-server-unknown', message: `${name} is not a server in mcp.json any more.` } };
      try {
        byServer.set(name, await this.list(name, server));
      } catch (failure) {
        const coded = failureOf(failure);
        this.options.onFailure?.(name, { code: coded.code, message: this.scrub(coded.message) });
        byServer.set(name, { code: coded.code, message: this.scrub(coded.message) });
      }
    }
    const bindings: McpBinding[] = [];
    for (const declaration of declarations) {
      const server = mcpServerOf(declaration.name);
      const listed = byServer.get(server)!;
      if (!Array.isArray(listed)) {
        bindings.push({ declaration, server, tool: null, failure: listed });
        continue;
      }
      const live = mcpDeclarations(server, listed).tools.find((tool) => tool.name === declaration.name);
      if (!live || !sameDeclaration(live, declaration))
        return {
          refusal: {
            code: 'mcp-tool-changed',
            message: live
              ? `${declaration.name} is declared differently by its server now; switch it off and on again to take the new declaration.`
              : `${declaration.name} is not offered by its server any more; switch it off.`,
          },
        };
      const own = listed.find((tool) => mcpToolName(server, tool.name) === declaration.name);
      bindings.push({ declaration, server, tool: own?.name ?? null, failure: null });
    }
    return { bindings };
  }

  /** Calls a bound tool. Never throws: a failing or stopped server answers with a coded error text. */
  async call(binding: McpBinding, input: unknown): Promise<ToolOutcome> {
    if (binding.failure || !binding.tool)
      return errorOutcome(
        binding.failure ?? { code: 'mcp-server-failed', message: 'The server could not be reached.' },
      );
    try {
      const { config } = await this.config();
      const server = config?.mcpServers[binding.server];
      if (!server) return errorOutcome({ code: 'mcp-server-unknown', message: `${binding.server} left mcp.json.` });
      const client = await this.client(binding.server, server);
      const result = await client.callTool(
        { name: binding.tool, arguments: (input ?? {}) as Record<string, unknown> },
        undefined,
        { timeout: this.requestTimeoutMs },
      );
      const text = this.scrub(resultText(result));
      return result.isError
        ? { status: 'error', code: 'mcp-tool-error', text: `Error mcp-tool-error: ${text}` }
        : { status: 'ok', code: null, text };
    } catch (error) {
      const failure = failureOf(error);
      const scrubbed = { code: failure.code, message: this.scrub(failure.message) };
      this.options.onFailure?.(binding.server, scrubbed);
      return errorOutcome(scrubbed);
    }
  }

  /** The connected client of a server, started now if it is not running (or its config changed). */
  private client(name: string, server: McpServerConfig): Promise<Client> {
    const key = canonicalJson(server);
    const existing = this.connections.get(name);
    if (existing?.key === key) return existing.client;
    if (existing) void this.disconnect(name, existing);
    const connection: Connection = { key, client: this.connect(name, server) };
    this.connections.set(name, connection);
    connection.client.catch(() => {
      if (this.connections.get(name) === connection) this.connections.delete(name);
    });
    return connection.client;
  }

  private async connect(name: string, server: McpServerConfig): Promise<Client> {
    const transport: Transport = isStdio(server)
      ? new StdioClientTransport({
          command: server.command,
          args: server.args ?? [],
          env: { ...getDefaultEnvironment(), ...(server.env ?? {}) },
          ...(server.cwd ? { cwd: server.cwd } : {}),
          // Its stderr may print its environment; it is not Weft's to keep.
          stderr: 'ignore',
        })
      : new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: server.headers ?? {}, redirect: 'error' },
        });
    const client = new Client({ name: 'weft', version: '0.1.0' });
    client.onclose = () => {
      // A server that stopped (or crashed) is started again at its next use.
      const current = this.connections.get(name);
      if (current) void current.client.then((live) => live === client && this.connections.delete(name)).catch(() => {});
    };
    try {
      await client.connect(transport, { timeout: this.connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    return client;
  }

  private async disconnect(name: string, connection: Connection): Promise<void> {
    if (this.connections.get(name) === connection) this.connections.delete(name);
    const client = await connection.client.catch(() => null);
    await client?.close().catch(() => {});
  }

  /** Ends every connection; stdio servers' processes are stopped (server stop). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.entries()].map(([name, connection]) => this.disconnect(name, connection)));
  }
}

function errorOutcome(error: McpError): ToolOutcome {
  return { status: 'error', code: error.code, text: `Error ${error.code}: ${error.message}` };
}

/** The text parts of a tool result, other parts named (the model gets text only). */
function resultText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  const parts = content.map((part) => (part.type === 'text' ? (part.text ?? '') : `[${part.type} content]`));
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}
