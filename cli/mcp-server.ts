import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { FindField, IndexReader, PostgresIndex, WhyIndex } from '../runtime/index/index.ts';
import { refreshNotice, teamDatabaseUrl } from './open-why-index.ts';
import type { Terminal } from './terminal.ts';

const FIELDS: Record<string, FindField> = { q: 'question', a: 'answer', m: 'material' };

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** A failed call as the model must see it: an MCP `isError` result whose text starts with a stable code. */
export function toolFailure(code: string, message: string): ToolResult {
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
}

/**
 * The SDK's own refusals (arguments that fail the tool's schema, an unknown tool) get codes too. They are made
 * by McpServer's `createToolError`, which TypeScript calls private; the MCP tests pin this behaviour.
 */
function codeSdkFailures(server: McpServer): void {
  const internals = server as unknown as { createToolError: (message: string) => ToolResult };
  internals.createToolError = (raw: string) => {
    const message = raw.replace(/^MCP error -?\d+: /, '');
    const code = /Input validation error|Invalid arguments/.test(message)
      ? 'invalid-arguments'
      : /^Tool .* not found/.test(message)
        ? 'unknown-tool'
        : 'tool-failed';
    return toolFailure(code, message);
  };
}

/**
 * The read-only tools: the four over the why index, answered by the same runtime/index queries as the CLI, and the
 * topics and dossiers (C15) read from `$WEFT_HOME/memory`. `why_check`, `why_file` and `find` answer through
 * `reader` (a team's PostgreSQL index with `WEFT_DATABASE_URL`, as `weft why | find`), and so do `recall_turn`,
 * `list_topics` and `read_dossier` (the topics and dossiers every machine pushed).
 */
export function createMcpServer(
  index: WhyIndex,
  io: Terminal,
  version = '0.1.0',
  reader: IndexReader | null = null,
): McpServer {
  const server = new McpServer({ name: 'weft', version });
  codeSdkFailures(server);
  let refreshing: Promise<unknown> = Promise.resolve();
  // One stat pass at a time, each before a call, so answers follow what the agents just wrote.
  const answer = (compute: () => unknown) => {
    const result = refreshing.then(async (): Promise<ToolResult> => {
      try {
        const notice = refreshNotice(await index.refresh());
        if (notice) io.err(`weft: ${notice}\n`);
        return { content: [{ type: 'text', text: JSON.stringify(await compute(), null, 2) }] };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const message = error instanceof Error ? error.message : String(error);
        return toolFailure(typeof code === 'string' ? code : 'internal-error', message);
      }
    });
    refreshing = result.catch(() => undefined);
    return result;
  };

  server.registerTool(
    'why_check',
    {
      title: 'Has this file any agent history?',
      description:
        "True when some coding-agent turn touched (or read) the path. Paths may be absolute, relative to the server's working directory, a bare file name, a URL or arxiv:<id>.",
      inputSchema: { path: z.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path }) =>
      answer(async () => ({
        path,
        history: reader ? await reader.hasHistory(path, { cwd: io.cwd }) : index.hasHistory(path, { cwd: io.cwd }),
      })),
  );
  server.registerTool(
    'why_file',
    {
      title: 'Why does this file look like this?',
      description:
        'The coding-agent turns that touched the path, newest first, with the question each turn answered. Read-only turns are hidden unless include_read or nothing else touched it.',
      inputSchema: {
        path: z.string().min(1),
        include_read: z.boolean().optional(),
        limit: z.number().int().positive().max(500).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path, include_read, limit }) =>
      answer(async () => {
        const options = { cwd: io.cwd, includeRead: include_read ?? false, limit: limit ?? 20 };
        return (reader ? await reader.why(path, options) : index.why(path, options)).hits;
      }),
  );
  server.registerTool(
    'find',
    {
      title: 'Find exact words in past turns',
      description: 'Exact-phrase search over agent questions (q), answers (a) and materials such as memory files (m).',
      inputSchema: {
        phrase: z.string().min(1),
        in: z.enum(['q', 'a', 'm']).optional(),
        limit: z.number().int().positive().max(500).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ phrase, in: field, limit }) =>
      answer(() => {
        const options = { ...(field ? { in: FIELDS[field]! } : {}), limit: limit ?? 20 };
        return reader ? reader.find(phrase, options) : index.find(phrase, options);
      }),
  );
  server.registerTool(
    'recall_turn',
    {
      title: 'Recall one turn verbatim',
      description:
        'The question, answer and tool steps of one turn: give a session id and turn number, or a turn key as session with no turn.',
      inputSchema: { session: z.string().min(1), turn: z.number().int().positive().optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ session, turn }) =>
      answer(() => {
        const request = turn === undefined ? { turnKey: session } : { sessionId: session, turn };
        return reader ? reader.recall(request) : index.recall(request);
      }),
  );
  server.registerTool(
    'list_topics',
    {
      title: 'List the topics',
      description:
        "The person's topics (C15): id, name, how many turns are labelled with each, and its dossier's version (null before one is built).",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      answer(async () => {
        const { listTopicSummaries } = await import('../runtime/dossiers/index.ts');
        const { resolveWeftHome } = await import('../runtime/fs/index.ts');
        return listTopicSummaries(resolveWeftHome(io.env), reader?.teamMemory ?? null);
      }),
  );
  server.registerTool(
    'read_dossier',
    {
      title: "Read a topic's dossier",
      description:
        "A topic (by name or id) in four sections — what it is, decisions taken, where it stands, what is open — each sentence citing the turn keys it rests on (read one with recall_turn). A dossier is a model's summary (knownAs: inferred): check a sentence against its turns before relying on it. Sentences whose sources are all archived or deleted, or that the person struck, are left out and counted.",
      inputSchema: { topic: z.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ topic }) =>
      answer(async () => {
        const { readTopicDossier } = await import('../runtime/dossiers/index.ts');
        const { resolveWeftHome } = await import('../runtime/fs/index.ts');
        const found = await readTopicDossier(
          resolveWeftHome(io.env),
          topic,
          index.database,
          true,
          reader?.teamMemory ?? null,
        );
        // #29.3: said in the answer itself, as recall and the [Memory] block say it: a model wrote these sentences.
        return {
          topic: found.topic,
          knownAs: 'inferred',
          dossier: found.dossier,
          sentencesLeftOut: found.retired.length,
        };
      }),
  );
  return server;
}

/**
 * `weft mcp`: opens the index (building it on first use) and serves on stdin/stdout; with `WEFT_DATABASE_URL`, the
 * why and find tools answer from that team index.
 */
export async function serveMcp(io: Terminal): Promise<void> {
  const { PostgresIndex: TeamIndex, postgresReader, WhyIndex } = await import('../runtime/index/index.ts');
  const url = teamDatabaseUrl(io);
  // Connect at once; the first tool call builds the index if there is none yet (its refresh does).
  const index = WhyIndex.open({ env: io.env });
  let team: PostgresIndex | null = null;
  try {
    team = url ? await TeamIndex.open(url) : null;
  } catch (error) {
    index.close();
    throw error;
  }
  const server = createMcpServer(index, io, undefined, team ? postgresReader(index, team) : null);
  const transport = new StdioServerTransport();
  transport.onclose = () => {
    index.close();
    void team?.close();
  };
  await server.connect(transport);
}
