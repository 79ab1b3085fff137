import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * The tools of the test MCP servers (stdio and HTTP): `echo`, `add`, `secret` (answers with its env's
 * `ECHO_SECRET`, to prove Weft cuts it), `fail` (an `isError` result), `pid` and `crash` (the process exits mid-call).
 * `ECHO_DESCRIPTION` changes `echo`'s description, so a test can change a declaration under a running app.
 */
export function echoMcpServer(environment: NodeJS.ProcessEnv = process.env): McpServer {
  const server = new McpServer({ name: 'weft-test-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: environment.ECHO_DESCRIPTION ?? 'Repeats the text it is given.',
      inputSchema: { text: z.string().describe('What to repeat.') },
    },
    ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool('secret', { description: 'Tells its secret.' }, () => ({
    content: [{ type: 'text', text: `the secret is ${environment.ECHO_SECRET ?? 'unset'}` }],
  }));
  server.registerTool('fail', { description: 'Always fails.' }, () => ({
    content: [{ type: 'text', text: 'this tool always fails' }],
    isError: true,
  }));
  server.registerTool('pid', { description: 'Tells its process id.' }, () => ({
    content: [{ type: 'text', text: String(process.pid) }],
  }));
  server.registerTool('crash', { description: 'Stops the server process mid-call.' }, () => {
    process.exit(3);
  });
  return server;
}
