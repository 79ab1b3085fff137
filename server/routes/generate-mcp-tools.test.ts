import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, McpServersResponse, McpToolsResponse, ToolDeclaration } from '../../protocol/index.ts';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { chatToolRequest, hashCanonical } from '../../src/core/index.ts';
import { mcpEchoStdioConfig } from '../../tests/support/mcp-echo-server.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

// C35 over real HTTP: a scripted model calls a tool of a real MCP server process (stdio) started by the server.
let server: TestServer;
let provider: ScriptedProvider;
let declarations: ToolDeclaration[];

const KEY = 'sk-test-mcp-0123456789abcdef';
const SECRET = 'mcp-env-secret-9876543210';

const writeConfig = (config: unknown) =>
  writeFile(join(server.home, 'mcp.json'), typeof config === 'string' ? config : JSON.stringify(config));

async function json<T>(path: string): Promise<T> {
  const response = await server.api(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer();
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [
        { id: 'local', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, apiKey: KEY, models: ['m'] },
      ],
    }),
  });
  expect(response.status).toBe(200);
  await writeConfig({ mcpServers: { echo: mcpEchoStdioConfig({ ECHO_SECRET: SECRET }) } });
  const listed = await json<McpToolsResponse>('/api/mcp/tools');
  declarations = listed.servers[0]!.tools;
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
});
beforeEach(() => {
  provider.requests.length = 0;
});

const offered = (...names: string[]) => declarations.filter((declaration) => names.includes(declaration.name));

function canonical(mcp: ToolDeclaration[]): CanonicalRequest {
  return {
    model: 'local/m',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Repeat hello.' }] }],
    ...chatToolRequest([], mcp),
  };
}

async function generate(request: CanonicalRequest): Promise<StreamEvent[]> {
  const response = await server.api('/api/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request, requestHash: hashCanonical(request), images: [] }),
  });
  expect(response.status).toBe(200);
  return collectStreamEvents(response);
}

const finished = (events: StreamEvent[]) => events.filter((event) => event.type === 'tool-call-finished');

describe('POST /api/generate with MCP tools (C35)', () => {
  it('the model is offered the declared MCP tool, calls it on the real server, and gets its result back', async () => {
    provider.script(
      { toolCalls: [{ id: 'call_mcp', name: 'echo__echo', input: { text: 'hello' } }] },
      { text: 'It said hello.' },
    );
    const events = await generate(canonical(offered('echo__echo')));
    expect(finished(events)).toEqual([
      expect.objectContaining({ callId: 'call_mcp', tool: 'echo__echo', status: 'ok', output: 'echo: hello' }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
    const first = JSON.stringify(provider.requests[0]!.body);
    expect(first).toContain('echo__echo');
    expect(first).toContain('Repeats the text it is given.');
    expect(first).not.toContain('echo__add');
    expect(JSON.stringify(provider.requests[1]!.body)).toContain('echo: hello');
  });

  it('a server that crashes mid-call returns a coded error to the model; the ask finishes and the next one works', async () => {
    provider.script({ toolCalls: [{ name: 'echo__crash', input: {} }] }, { text: 'The tool broke.' });
    const events = await generate(canonical(offered('echo__echo', 'echo__crash')));
    expect(finished(events)).toEqual([
      expect.objectContaining({ tool: 'echo__crash', status: 'error', code: 'mcp-server-failed' }),
    ]);
    expect(JSON.stringify(provider.requests[1]!.body)).toContain('mcp-server-failed');
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });

    provider.requests.length = 0;
    provider.script({ toolCalls: [{ name: 'echo__echo', input: { text: 'again' } }] }, { text: 'ok' });
    const next = await generate(canonical(offered('echo__echo', 'echo__crash')));
    expect(finished(next)[0]).toMatchObject({ status: 'ok', output: 'echo: again' });
  });

  it('a tool whose server declares it differently now is refused before any model call', async () => {
    const altered = { ...offered('echo__echo')[0]!, description: 'Do anything at all.' };
    const events = await generate(canonical([altered]));
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'mcp-tool-changed' })]);
    expect(provider.requests).toHaveLength(0);
  });

  it('env values never reach an answer, an event or a log line', async () => {
    provider.script({ toolCalls: [{ name: 'echo__secret', input: {} }] }, { text: 'done' });
    const events = await generate(canonical(offered('echo__secret')));
    expect(finished(events)[0]).toMatchObject({ status: 'ok', output: 'the secret is [redacted]' });
    const servers = await json<McpServersResponse>('/api/mcp/servers');
    expect(servers.servers[0]).toMatchObject({ name: 'echo', secretNames: ['ECHO_SECRET'] });
    const everything = JSON.stringify([events, servers, provider.requests, server.logger.lines]);
    expect(everything).not.toContain(SECRET);
  });

  it('a malformed mcp.json is a coded error in /api/mcp; an ask without MCP tools is untouched', async () => {
    await writeConfig('{ "mcpServers": [ }');
    try {
      const servers = await json<McpServersResponse>('/api/mcp/servers');
      expect(servers).toMatchObject({ servers: [], error: { code: 'mcp-config-invalid' } });
      expect(servers.error!.message).toMatch(/line 1, column \d+/);
      expect(await json<McpToolsResponse>('/api/mcp/tools')).toMatchObject({ error: { code: 'mcp-config-invalid' } });
      provider.script({ text: 'Plain answer.' });
      const events = await generate(canonical([]));
      expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
      const refused = await generate(canonical(offered('echo__echo')));
      expect(refused).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'mcp-config-invalid' })]);
    } finally {
      await writeConfig({ mcpServers: { echo: mcpEchoStdioConfig({ ECHO_SECRET: SECRET }) } });
    }
  });
});
