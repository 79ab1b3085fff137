import type { ParsedCommand } from '../command-table.ts';
import type { Terminal } from '../terminal.ts';

/** `weft mcp`: the MCP server over stdio; runs until the client closes the pipe. */
export async function run(_command: ParsedCommand, io: Terminal): Promise<number> {
  const { serveMcp } = await import('../mcp-server.ts');
  await serveMcp(io);
  return 0;
}
