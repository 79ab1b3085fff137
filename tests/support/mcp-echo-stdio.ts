import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { appendFileSync } from 'node:fs';
import { echoMcpServer } from './mcp-echo-tools.ts';

// A real MCP server process over stdio (run with `node --import tsx`); `mcpEchoStdioConfig` points mcp.json here.
// `ECHO_STARTED_FILE`: each start appends its pid there, so a test can tell whether (and how often) it was spawned.
if (process.env.ECHO_STARTED_FILE) appendFileSync(process.env.ECHO_STARTED_FILE, `${process.pid}\n`);
await echoMcpServer().connect(new StdioServerTransport());
