import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { echoMcpServer } from './mcp-echo-tools.ts';

// A real MCP server process over stdio (run with `node --import tsx`); `mcpEchoStdioConfig` points mcp.json here.
await echoMcpServer().connect(new StdioServerTransport());
