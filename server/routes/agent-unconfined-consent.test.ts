import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import {
  configurePi,
  installRealClis,
  makeScratch,
  startScriptedModel,
  type RealClis,
  type Scratch,
  type ScriptedModel,
} from '../../tests/support/agents/real-agent-harness.ts';
import { readStreamEvents } from '../../tests/support/sse-client.ts';
import { saveAgentCanvas } from '../../tests/support/saved-agent-canvas.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { agentRoute } from './agent-route.ts';

/**
 * Where no sandbox runs, the lane asks once per canvas and the server keeps the answer: a turn without it is
 * refused before anything reaches the working directory, whatever the request body says.
 */
let clis: RealClis | null = null;
let scratch: Scratch;
let model: ScriptedModel;
let home: string;
let piModel = '';
const servers: TestServer[] = [];
const NO_SANDBOX = 'bubblewrap is not installed (test)';

async function start(): Promise<TestServer> {
  const env = { ...scratch.env, WEFT_PI_BIN: clis?.pi ?? join(scratch.root, 'no-pi') };
  const server = await startTestServer({
    home,
    apiRoutes: [(context) => agentRoute(context, { env, sandboxSupport: () => ({ unconfined: NO_SANDBOX }) })],
  });
  servers.push(server);
  // The app saves a canvas before its turn: the server reads the turn's node and folder from it.
  for (const id of ['canvas-a', 'canvas-b'])
    await saveAgentCanvas(server, id, { nodeId: 'node-1', workingDirectory: scratch.repo });
  return server;
}

beforeAll(async () => {
  const installed = installRealClis();
  if (!('skip' in installed)) clis = installed;
  scratch = makeScratch('weft-agent-consent-');
  home = mkdtempSync(join(tmpdir(), 'weft-consent-home-'));
  model = await startScriptedModel(scratch.root);
  model.addScenario({
    name: 'hello',
    runners: ['pi'],
    exchanges: [{ match: '[agent-hello]', replies: [{ text: 'Hello from an unconfined turn.' }] }],
  });
  piModel = configurePi(scratch, model.base('pi', 'hello', scratch.repo));
}, 300_000);
afterAll(async () => {
  model?.stop();
  for (const server of servers) await server.close().catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
  rmSync(scratch.root, { recursive: true, force: true });
});

const text = 'Say hello. [agent-hello]';
const turn = (server: TestServer, extra: Record<string, unknown>) =>
  server.api('/api/agents/turn', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      runtime: 'pi',
      nodeId: 'node-1',
      cwd: scratch.repo,
      guardMode: 'ask',
      text,
      receivedHash: createHash('sha256').update(text).digest('hex'),
      model: piModel,
      materials: [{ fileName: '1-note.md', text: 'a material' }],
      ...extra,
    }),
  });
const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
const sandbox = async (server: TestServer, canvasId: string) =>
  (await server.api(`/api/agents/sandbox?canvasId=${canvasId}`)).json();

describe('running agents unconfined', () => {
  it('is refused until the person agrees for that canvas; a body that claims consent is not believed', async () => {
    const server = await start();
    expect(await sandbox(server, 'canvas-a')).toEqual({ confined: false, reason: NO_SANDBOX, consented: false });
    const refused = await turn(server, { canvasId: 'canvas-a', consented: true, unconfined: true });
    expect(refused.status).toBe(409);
    expect(await errorCode(refused)).toBe('AGENT_UNCONFINED_CONSENT');
    // A turn that names no canvas is refused too (no saved canvas to run on, let alone consent).
    expect((await turn(server, {})).status).toBe(409);
    // Refused before the materials were copied: nothing reached the working directory.
    expect(existsSync(join(scratch.repo, '.weft'))).toBe(false);

    const agreed = await server.api('/api/agents/unconfined-consent', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ canvasId: 'canvas-a' }),
    });
    expect(await agreed.json()).toEqual({ confined: false, reason: NO_SANDBOX, consented: true });
    // Once per canvas: another canvas still asks.
    expect(await sandbox(server, 'canvas-b')).toMatchObject({ consented: false });
    expect(await errorCode(await turn(server, { canvasId: 'canvas-b' }))).toBe('AGENT_UNCONFINED_CONSENT');
    const file = JSON.parse(readFileSync(join(home, 'agents', 'unconfined-consent.json'), 'utf8')) as {
      canvases: Record<string, unknown>;
    };
    expect(Object.keys(file.canvases)).toEqual(['canvas-a']);
  });

  it('the answer outlives the server, and the agreed canvas runs its turn', async (context) => {
    await servers.at(-1)?.close();
    const server = await start();
    expect(await sandbox(server, 'canvas-a')).toMatchObject({ consented: true });
    if (!clis) return context.skip('the pinned CLIs are not installed');
    const response = await turn(server, { canvasId: 'canvas-a' });
    expect(response.status).toBe(200);
    const events: StreamEvent[] = [];
    for await (const event of readStreamEvents(response)) events.push(event);
    expect(events.at(-1)).toEqual(
      expect.objectContaining({ type: 'agent-finished', status: 'completed', text: 'Hello from an unconfined turn.' }),
    );
  }, 120_000);
});
