import type { CanonicalRequest, ChatToolId, ToolCallRecord, ToolDeclaration } from '../../protocol/index.ts';
import { TOOL_INPUT_MAX_CHARS, TOOL_OUTPUT_MAX_CHARS } from '../../protocol/index.ts';
import type { EventDraft } from './event-log.ts';
import { canonicalJson } from './hashing.ts';
import { isMcpDeclaration } from './mcp-declarations.ts';
import { failure, success, type Result } from './result.ts';

/** One tool the chat model may be offered (C35): its request flag, its label, what the model is told. */
export interface ChatToolSpec {
  id: ChatToolId;
  /** The key in the canonical request's `tools` flags. */
  flag: string;
  label: string;
  declaration: ToolDeclaration;
}

/** The input every keyword search takes: a query and how many results (1–10). */
function searchInputSchema(query: string, rows: string): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 300, description: query },
      rows: { type: 'integer', minimum: 1, maximum: 10, description: rows },
    },
    required: ['query'],
    additionalProperties: false,
  };
}

/** Every tool Weft can offer. Changing a declaration changes the hash of every request that offers it. */
export const CHAT_TOOLS: Readonly<Record<ChatToolId, ChatToolSpec>> = {
  'scholarly-search': {
    id: 'scholarly-search',
    flag: 'scholarlySearch',
    label: 'Scholarly search (Crossref)',
    declaration: {
      name: 'scholarly_search',
      description:
        'Search published scholarly works (Crossref) by keywords. Returns up to `rows` works, one per line: title, authors, year, venue and DOI.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 300, description: 'Keywords, a title or an author.' },
          rows: { type: 'integer', minimum: 1, maximum: 10, description: 'How many works to return (default 5).' },
        },
        required: ['query'],
        additionalProperties: false,
      },
    },
  },
  'arxiv-search': {
    id: 'arxiv-search',
    flag: 'arxivSearch',
    label: 'Preprint search (arXiv)',
    declaration: {
      name: 'arxiv_search',
      description:
        'Search arXiv preprints by keywords. Returns up to `rows` preprints, one per line: title, authors, year and arXiv link.',
      inputSchema: searchInputSchema('Keywords, a title or an author.', 'How many preprints to return (default 5).'),
    },
  },
  'semantic-scholar-search': {
    id: 'semantic-scholar-search',
    flag: 'semanticScholarSearch',
    label: 'Paper search (Semantic Scholar)',
    declaration: {
      name: 'semantic_scholar_search',
      description:
        'Search papers indexed by Semantic Scholar by keywords. Returns up to `rows` papers, one per line: title, authors, year, venue and a link (DOI, arXiv or Semantic Scholar).',
      inputSchema: searchInputSchema('Keywords, a title or an author.', 'How many papers to return (default 5).'),
    },
  },
  'web-search': {
    id: 'web-search',
    flag: 'webSearch',
    label: 'Web search (the service set in Settings)',
    declaration: {
      name: 'web_search',
      description:
        'Search the web by keywords with the search service the person configured. Returns up to `rows` results, one per line: title, address and a short extract.',
      inputSchema: searchInputSchema('Keywords or a question.', 'How many results to return (default 5).'),
    },
  },
};

export const CHAT_TOOL_IDS = Object.keys(CHAT_TOOLS) as ChatToolId[];

export interface ToolRefusal {
  code: 'tool-refused';
  message: string;
}

/**
 * The request fields for a node's tools, in a fixed order so the same setting always hashes the same: Weft's own
 * tools (a flag and a declaration each), then the node's MCP tools as they were declared when switched on.
 */
export function chatToolRequest(
  ids: readonly ChatToolId[],
  mcpTools: readonly ToolDeclaration[] = [],
): Pick<CanonicalRequest, 'tools' | 'toolDeclarations'> {
  const chosen = CHAT_TOOL_IDS.filter((id) => ids.includes(id));
  const mcp = mcpTools.filter(isMcpDeclaration);
  if (chosen.length === 0 && mcp.length === 0) return { tools: {} };
  return {
    tools: Object.fromEntries(chosen.map((id) => [CHAT_TOOLS[id].flag, true])),
    toolDeclarations: [...chosen.map((id) => CHAT_TOOLS[id].declaration), ...mcp],
  };
}

/**
 * Which tools a received request may use: every flag switched on must be a known tool, declared exactly as
 * Weft declares it, and nothing may be declared that is not switched on. Anything else is refused, so a model
 * is never offered (or hashed with) a tool other than the one that runs.
 */
export function declaredChatTools(request: CanonicalRequest): Result<ChatToolId[], ToolRefusal> {
  const byFlag = new Map(CHAT_TOOL_IDS.map((id) => [CHAT_TOOLS[id].flag, id]));
  const on = Object.entries(request.tools).filter(([, enabled]) => enabled);
  const ids: ChatToolId[] = [];
  for (const [flag] of on) {
    const id = byFlag.get(flag);
    if (!id)
      return failure({
        code: 'tool-refused',
        message: `The request switches on “${flag}”, a tool Weft does not have.`,
      });
    ids.push(id);
  }
  // MCP declarations are checked against their live servers by the server (`McpClients.verify`).
  const expected = chatToolRequest(ids).toolDeclarations ?? [];
  const received = (request.toolDeclarations ?? []).filter((declaration) => !isMcpDeclaration(declaration));
  if (canonicalJson(expected) !== canonicalJson(received))
    return failure({
      code: 'tool-refused',
      message: 'The request declares its tools differently from the tools it switches on; nothing was sent.',
    });
  return success(CHAT_TOOL_IDS.filter((id) => ids.includes(id)));
}

/** The spec of the tool a model calls by its declared name, if it was offered. */
export function chatToolByName(name: string, offered: readonly ChatToolId[]): ChatToolSpec | null {
  const id = offered.find((candidate) => CHAT_TOOLS[candidate].declaration.name === name);
  return id ? CHAT_TOOLS[id] : null;
}

/** Cuts a tool's text to `limit` characters with a mark saying how much was left out (never a split pair). */
export function boundToolText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n[cut: ${text.length - end} more characters]`;
}

export const boundToolInput = (text: string) => boundToolText(text, TOOL_INPUT_MAX_CHARS);
export const boundToolOutput = (text: string) => boundToolText(text, TOOL_OUTPUT_MAX_CHARS);

/**
 * C10: one event per tool call — which tool, how it ended, how much came back; never the text itself. `versionId`
 * is null when no version keeps the call (the ask failed or was stopped before any text).
 */
export function toolCallEvent(nodeId: string, versionId: string | null, call: ToolCallRecord): EventDraft {
  return {
    op: 'tool-call',
    objectId: nodeId,
    meta: {
      versionId,
      callId: call.callId,
      tool: call.tool,
      status: call.status,
      code: call.code,
      outputChars: call.output.length,
    },
  };
}
