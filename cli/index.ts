// Public surface of the CLI: the entry point, the options table and the MCP server factory.
export { main } from './main.ts';
export { COMMANDS, parseCommandLine, helpText } from './command-table.ts';
export type { CommandSpec, FlagSpec, ParsedCommand } from './command-table.ts';
export { createMcpServer, serveMcp } from './mcp-server.ts';
export { addToMcpJson, removeFromMcpJson, addToCodexToml, removeFromCodexToml } from './mcp-registration.ts';
export { CliError } from './cli-error.ts';
