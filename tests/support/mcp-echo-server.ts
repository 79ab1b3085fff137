import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { echoMcpServer } from './mcp-echo-tools.ts';

/** mcp.json's entry for the stdio echo server: this Node with tsx, so the TypeScript source runs as it is. */
export function mcpEchoStdioConfig(env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', fileURLToPath(new URL('./mcp-echo-stdio.ts', import.meta.url))],
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env,
  };
}

export interface McpEchoHttpServer {
  /** The streamable HTTP endpoint (`…/mcp`). */
  url: string;
  /** The authorization header of each request, to prove configured headers are sent. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** The echo tools over streamable HTTP on 127.0.0.1 (stateless: one server and transport per request). */
export async function startMcpEchoHttpServer(token: string): Promise<McpEchoHttpServer> {
  const authorizations: (string | undefined)[] = [];
  const http = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    if (request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const server = echoMcpServer({});
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        response.on('close', () => void transport.close().then(() => server.close()));
        await server.connect(transport);
        const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        await transport.handleRequest(request, response, body);
      })();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
