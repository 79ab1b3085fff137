import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import type { ChatToolId, ToolDeclaration } from '../../protocol/index.ts';
import { boundToolOutput, CHAT_TOOLS } from '../../src/core/index.ts';
import { arxivSearch } from './arxiv-search.ts';
import type { McpBinding, McpClients } from './mcp-clients.ts';
import { isToolOutcome, type ToolOutcome } from './tool-outcome.ts';
import { scholarlySearch } from './scholarly-search.ts';
import type { SearchServiceOptions } from './search-service-options.ts';
import { semanticScholarSearch } from './semantic-scholar-search.ts';
import { webSearch, type WebSearchOptions } from './web-search.ts';
import { isWeftError } from '../../protocol/index.ts';

/** Where each tool reaches out to; the server passes its address policy and endpoints. */
export interface ChatToolOptions {
  /** The scholarly search services (Crossref, arXiv, Semantic Scholar). */
  scholarly?: SearchServiceOptions;
  /** The web search service set in Settings; without it `web_search` answers `web-search-not-configured`. */
  webSearch?: WebSearchOptions;
}

type Runner = (input: unknown, options: ChatToolOptions) => Promise<string>;
const RUNNERS: Record<ChatToolId, Runner> = {
  'scholarly-search': (input, options) => scholarlySearch(input, options.scholarly),
  'arxiv-search': (input, options) => arxivSearch(input, options.scholarly),
  'semantic-scholar-search': (input, options) => semanticScholarSearch(input, options.scholarly),
  'web-search': (input, options) =>
    webSearch(input, {
      configured: () => Promise.resolve({ provider: null, searxngUrl: null, braveKey: null }),
      ...options.webSearch,
    }),
};

/** A failure the model reads: coded, one line, never a stack (and never a key: tools hold none). */
function failed(error: unknown): ToolOutcome {
  if (isWeftError(error)) return { status: 'error', code: error.code, text: `Error ${error.code}: ${error.message}` };
  return { status: 'error', code: 'tool-failed', text: 'Error tool-failed: the tool stopped unexpectedly.' };
}

/** One AI SDK tool declared with exactly the request's bytes; `run` never throws (a failure is an outcome). */
function declaredTool(declaration: ToolDeclaration, run: (input: unknown) => Promise<ToolOutcome>): Tool {
  return tool({
    description: declaration.description,
    inputSchema: jsonSchema(declaration.inputSchema),
    execute: async (input: unknown): Promise<ToolOutcome> => {
      try {
        const outcome = await run(input);
        return { ...outcome, text: boundToolOutput(outcome.text) };
      } catch (error) {
        return failed(error);
      }
    },
    toModelOutput: ({ output }) => {
      const outcome = isToolOutcome(output) ? output : failed(null);
      return outcome.status === 'ok'
        ? { type: 'text', value: outcome.text }
        : { type: 'error-text', value: outcome.text };
    },
  });
}

/**
 * The AI SDK tools for the tools a request switched on, declared exactly as the request declares them. A tool
 * that fails answers the model with a coded error instead of throwing, so the ask goes on.
 */
export function chatToolset(ids: readonly ChatToolId[], options: ChatToolOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const id of ids) {
    const { declaration } = CHAT_TOOLS[id];
    tools[declaration.name] = declaredTool(declaration, async (input) => ({
      status: 'ok',
      code: null,
      text: await RUNNERS[id](input, options),
    }));
  }
  return tools;
}

/** C35: the MCP tools a request offers, each called on its server through `McpClients` (bound by `bind`). */
export function mcpToolset(bindings: readonly McpBinding[], clients: McpClients): ToolSet {
  const tools: ToolSet = {};
  for (const binding of bindings)
    tools[binding.declaration.name] = declaredTool(binding.declaration, (input) => clients.call(binding, input));
  return tools;
}
