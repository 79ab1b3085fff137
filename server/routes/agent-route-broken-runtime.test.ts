import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { readStreamEvents } from '../../tests/support/sse-client.ts';
import { saveAgentCanvas } from '../../tests/support/saved-agent-canvas.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { agentRoute } from './agent-route.ts';

/**
 * Runtimes that cannot take a prompt: one that cannot start at all, and ones that close their stdin early (the next
 * write is an EPIPE, which must end the turn with a coded error, not crash the server). No real CLI is needed.
 */
let root: string;
let cwd: string;
const servers: TestServer[] = [];

function script(name: string, body: string): string {
  const path = join(root, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * Unconfined (agreed for the canvas): these scripts test the adapter's own handling of a runtime's stdin. In
 * bubblewrap the sandbox's processes hold the pipe too, so an early close is only seen as the runtime's exit
 * (runtime/agents/README.md, known gaps).
 */
async function serverWith(env: NodeJS.ProcessEnv): Promise<TestServer> {
  const server = await startTestServer({
    apiRoutes: [
      (context) =>
        agentRoute(context, {
          env,
          approvalTimeoutMs: 2000,
          sessionRoots: () => [],
          sandboxSupport: () => ({ unconfined: 'the adapter alone is under test' }),
        }),
    ],
  });
  servers.push(server);
  // The app saves the canvas before a turn: the server reads the turn's node and folder from it.
  await saveAgentCanvas(server, 'canvas-1', { nodeId: 'node-1', workingDirectory: cwd });
  const agreed = await server.api('/api/agents/unconfined-consent', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ canvasId: 'canvas-1' }),
  });
  expect(agreed.status).toBe(200);
  return server;
}

async function piTurn(server: TestServer): Promise<StreamEvent[]> {
  const text = 'Context block.\n\nWrite the notes.';
  const response = await server.api('/api/agents/turn', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      runtime: 'pi',
      canvasId: 'canvas-1',
      nodeId: 'node-1',
      cwd,
      guardMode: 'ask',
      text,
      receivedHash: createHash('sha256').update(text, 'utf8').digest('hex'),
    }),
  });
  const events: StreamEvent[] = [];
  for await (const event of readStreamEvents(response)) events.push(event);
  return events;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'weft-broken-runtime-'));
  cwd = join(root, 'project');
  mkdirSync(cwd);
});
afterAll(async () => {
  for (const server of servers) await server.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('agent runtimes that never take the prompt', () => {
  it('a Pi that cannot start: a coded error and no prompt delivered (so the client writes no commit)', async () => {
    const pi = join(root, 'pi-unstartable');
    writeFileSync(pi, '#!/nonexistent/interpreter\n');
    chmodSync(pi, 0o755);
    const server = await serverWith({ WEFT_PI_BIN: pi, PATH: '' });
    const events = await piTurn(server);
    expect(events.map((event) => event.type)).not.toContain('agent-prompt-delivered');
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'agent-failed', code: 'AGENT_NOT_STARTED' }));
  });

  it('a Pi that closes its stdin before the prompt: coded error, no prompt delivered, the server lives on', async () => {
    const pi = script(
      'pi-closes-stdin',
      `exec 0<&-\necho '{"type":"response","id":"weft-state","command":"get_state","success":true,"data":{}}'\nsleep 1\nexit 3`,
    );
    const server = await serverWith({ WEFT_PI_BIN: pi, PATH: '' });
    const events = await piTurn(server);
    expect(events.map((event) => event.type)).not.toContain('agent-prompt-delivered');
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'agent-failed', code: 'AGENT_EXITED' }));
    expect((await server.api('/api/agents')).status).toBe(200);
  });

  it('a Codex that closes its stdin while its models are listed: no models, the server lives on', async () => {
    const codex = script('codex-closes-stdin', `exec 0<&-\necho '{"id":1,"result":{}}'\nsleep 1`);
    const server = await serverWith({ WEFT_CODEX_BIN: codex, PATH: '' });
    const listing = (await (await server.api('/api/agents')).json()) as {
      runtimes: { runtime: string; installed: boolean; models: unknown[] }[];
    };
    expect(listing.runtimes).toContainEqual(expect.objectContaining({ runtime: 'codex', installed: true, models: [] }));
    expect((await server.api('/api/agents')).status).toBe(200);
  });
});
