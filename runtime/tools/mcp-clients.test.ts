import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../../protocol/index.ts';
import { mcpEchoStdioConfig, startMcpEchoHttpServer, type McpEchoHttpServer } from '../../tests/support/index.ts';
import { McpClients } from './mcp-clients.ts';

// C35: real MCP servers — a child process over stdio and a streamable HTTP endpoint on 127.0.0.1 — through the SDK.
const SECRET = 'echo-secret-value-0123456789';
const TOKEN = 'mcp-http-token-abcdef';
let home: string;
let http: McpEchoHttpServer;
let clients: McpClients;
const failures: string[] = [];

async function writeConfig(config: unknown) {
  await writeFile(join(home, 'mcp.json'), typeof config === 'string' ? config : JSON.stringify(config));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'weft-mcp-'));
  http = await startMcpEchoHttpServer(TOKEN);
});
afterAll(async () => {
  await http.close();
  await rm(home, { recursive: true, force: true });
});
afterEach(async () => {
  await clients?.close();
  failures.length = 0;
});

function open() {
  clients = new McpClients({
    configPath: join(home, 'mcp.json'),
    onFailure: (server, error) => failures.push(`${server} ${error.code} ${error.message}`),
  });
  return clients;
}

async function bound(name: string) {
  const { servers } = await clients.tools();
  const declaration = servers.flatMap((server) => server.tools).find((tool) => tool.name === name)!;
  const result = await clients.bind([declaration]);
  if (!('bindings' in result)) throw new Error(result.refusal.message);
  return result.bindings[0]!;
}

describe('McpClients', () => {
  it('without mcp.json there are no servers and no error', async () => {
    await rm(join(home, 'mcp.json'), { force: true });
    expect(await open().servers()).toMatchObject({ error: null, servers: [] });
    expect(await clients.tools()).toEqual({ error: null, servers: [] });
  });

  it('a malformed mcp.json gives a coded error with its line and column, and no server', async () => {
    await writeConfig('{\n  "mcpServers": {\n    "echo": { "command": "node", }\n  }\n}');
    const servers = await open().servers();
    expect(servers.servers).toEqual([]);
    expect(servers.error?.code).toBe('mcp-config-invalid');
    expect(servers.error?.message).toMatch(/line 3, column \d+/);
    await writeConfig({ mcpServers: { echo: { args: ['x'] } } });
    expect((await clients.servers()).error?.message).toContain('mcpServers.echo');
    const refusal = await clients.bind([{ name: 'echo__echo', description: '', inputSchema: {} }]);
    expect(refusal).toMatchObject({ refusal: { code: 'mcp-config-invalid' } });
  });

  it('stdio: lists the tools prefixed by the server with their schemas, calls them, and never shows env values', async () => {
    await writeConfig({ mcpServers: { echo: mcpEchoStdioConfig({ ECHO_SECRET: SECRET }) } });
    const summary = await open().servers();
    expect(summary.servers).toEqual([
      expect.objectContaining({ name: 'echo', transport: 'stdio', secretNames: ['ECHO_SECRET'] }),
    ]);
    expect(JSON.stringify(summary)).not.toContain(SECRET);

    const { servers } = await clients.tools();
    expect(servers[0]!.error).toBeNull();
    expect(servers[0]!.tools.map((tool) => tool.name)).toEqual([
      'echo__echo',
      'echo__add',
      'echo__secret',
      'echo__fail',
      'echo__pid',
      'echo__crash',
    ]);
    const echo = servers[0]!.tools[0]!;
    expect(echo.description).toBe('Repeats the text it is given.');
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });

    expect(await clients.call(await bound('echo__echo'), { text: 'hello' })).toEqual({
      status: 'ok',
      code: null,
      text: 'echo: hello',
    });
    expect(await clients.call(await bound('echo__add'), { a: 2, b: 40 })).toMatchObject({ text: '42' });
    const secret = await clients.call(await bound('echo__secret'), {});
    expect(secret.text).toBe('the secret is [redacted]');
    expect(await clients.call(await bound('echo__fail'), {})).toMatchObject({
      status: 'error',
      code: 'mcp-tool-error',
    });
  });

  it('a stdio server is started only when its tools are listed or bound, once, and not by reading the config', async () => {
    const started = join(home, 'started.txt');
    await rm(started, { force: true });
    await writeConfig({ mcpServers: { echo: mcpEchoStdioConfig({ ECHO_STARTED_FILE: started }) } });
    await open().servers();
    await clients.bind([]);
    expect(existsSync(started)).toBe(false);
    const { servers } = await clients.tools();
    await clients.bind(servers[0]!.tools.slice(0, 1));
    expect(readFileSync(started, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a server that crashes mid-call answers a coded error, and the next call starts it again', async () => {
    await writeConfig({ mcpServers: { echo: mcpEchoStdioConfig() } });
    open();
    const pid = Number((await clients.call(await bound('echo__pid'), {})).text);
    const crashed = await clients.call(await bound('echo__crash'), {});
    expect(crashed).toMatchObject({ status: 'error', code: 'mcp-server-failed' });
    expect(crashed.text).toMatch(/^Error mcp-server-failed: /);
    expect(failures.some((line) => line.startsWith('echo mcp-server-failed'))).toBe(true);
    const again = Number((await clients.call(await bound('echo__pid'), {})).text);
    expect(again).not.toBe(pid);
    expect(alive(again)).toBe(true);
    await clients.close();
    await expect.poll(() => alive(again)).toBe(false);
  });

  it('a declaration that differs from what the server lists now is refused; an unknown server too', async () => {
    await writeConfig({ mcpServers: { echo: mcpEchoStdioConfig() } });
    const { servers } = await open().tools();
    const echo = servers[0]!.tools[0]!;
    expect('bindings' in (await clients.bind([echo]))).toBe(true);
    const changed: ToolDeclaration = { ...echo, description: 'Something else.' };
    expect(await clients.bind([changed])).toMatchObject({ refusal: { code: 'mcp-tool-changed' } });
    // The server itself changes: the config's env changes its description, so it restarts and lists anew.
    await writeConfig({ mcpServers: { echo: mcpEchoStdioConfig({ ECHO_DESCRIPTION: 'Repeats, louder.' }) } });
    expect(await clients.bind([echo])).toMatchObject({ refusal: { code: 'mcp-tool-changed' } });
    expect(await clients.bind([{ ...echo, name: 'other__echo' }])).toMatchObject({
      refusal: { code: 'mcp-server-unknown' },
    });
  });

  it('a server that cannot start is not a refusal: its calls answer the model with the coded failure', async () => {
    await writeConfig({ mcpServers: { broken: { command: join(home, 'no-such-program') } } });
    const { servers } = await open().tools();
    expect(servers[0]).toMatchObject({ name: 'broken', tools: [], error: { code: 'mcp-server-failed' } });
    const result = await clients.bind([{ name: 'broken__echo', description: '', inputSchema: { type: 'object' } }]);
    if (!('bindings' in result)) throw new Error('refused');
    expect(await clients.call(result.bindings[0]!, {})).toMatchObject({ status: 'error', code: 'mcp-server-failed' });
  });

  it('streamable HTTP on 127.0.0.1: the configured headers are sent, the tools listed and called', async () => {
    await writeConfig({ mcpServers: { web: { url: http.url, headers: { authorization: `Bearer ${TOKEN}` } } } });
    const summary = await open().servers();
    expect(summary.servers[0]).toMatchObject({ transport: 'http', target: http.url, secretNames: ['authorization'] });
    expect(JSON.stringify(summary)).not.toContain(TOKEN);
    const { servers } = await clients.tools();
    expect(servers[0]!.tools.map((tool) => tool.name)).toContain('web__add');
    expect(await clients.call(await bound('web__add'), { a: 1, b: 2 })).toMatchObject({ status: 'ok', text: '3' });
    expect(http.authorizations.every((value) => value === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('shows a command line and URL without their keys, and scrubs a header token even without its Bearer prefix', async () => {
    await writeConfig({
      mcpServers: {
        local: {
          command: 'mcp-local',
          args: ['--verbose', '--token', 'arg-key-0123', '--api-key=arg-key-4567', 'serve'],
        },
        web: {
          url: 'https://mcp.example.test/v1/mcp?token=url-key-89ab',
          headers: { authorization: `Bearer ${TOKEN}` },
        },
      },
    });
    const summary = await open().servers();
    expect(summary.servers.map((server) => server.target)).toEqual([
      'mcp-local --verbose --token … --api-key=… serve',
      'https://mcp.example.test/v1/mcp',
    ]);
    expect(JSON.stringify(summary)).not.toMatch(/arg-key|url-key/);
    expect(clients.scrub(`rejected ${TOKEN}; Bearer ${TOKEN}; arg-key-0123 arg-key-4567 url-key-89ab`)).toBe(
      'rejected [redacted]; [redacted]; [redacted] [redacted] [redacted]',
    );
  });
});
