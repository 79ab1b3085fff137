import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest, StreamEvent } from '../protocol/index.ts';
import { agentRoute } from '../server/routes/agent-route.ts';
import { hashCanonical, sha256Hex } from '../src/core/index.ts';
import { createAgentApi } from '../src/ui/api/agent-api.ts';
import { runAgentTurn } from '../src/ui/store/run-agent-turn.ts';
import { createAskCanvasApi } from '../src/ui/ask-canvas/ask-canvas-api.ts';
import { createAskCanvasClient } from '../src/ui/ask-canvas/ask-canvas-client.ts';
import { TestApp } from '../src/ui/store/test-app.ts';
import {
  configurePi,
  installRealClis,
  makeScratch,
  startScriptedModel,
  type Scratch,
  type ScriptedModel,
} from './support/agents/real-agent-harness.ts';
import { collectStreamEvents } from './support/sse-client.ts';
import { saveAgentCanvas } from './support/saved-agent-canvas.ts';
import { startTamperingProxy, type TamperingProxy } from './support/tampering-proxy.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/**
 * C9's handshake, the same cases for all three lanes (a model's answer, an agent turn, an ask of the canvas), over
 * real HTTP on loopback against the real server: the server refuses a client hash that is not its own before
 * anything is handed over, and the page records its commit once, and only when the server's hash is the page's.
 * The page's side is driven through a loopback proxy that can alter the server's acceptance.
 */
let server: TestServer;
let proxy: TamperingProxy;
let scratch: Scratch;
let model: ScriptedModel;
let piModel = '';
let agentSkip = '';
const MATCH = '[handshake]';

beforeAll(async () => {
  const clis = installRealClis();
  if ('skip' in clis) agentSkip = clis.skip;
  scratch = makeScratch('weft-handshake-');
  model = await startScriptedModel(scratch.root);
  model.addScenario({
    name: 'handshake',
    runners: ['pi'],
    exchanges: [{ match: MATCH, replies: [{ text: 'Done.' }] }],
  });
  piModel = configurePi(scratch, model.base('pi', 'handshake', scratch.repo));
  const env = {
    ...scratch.env,
    WEFT_PI_BIN: 'skip' in clis ? join(scratch.root, 'no-pi') : clis.pi,
    WEFT_CODEX_BIN: join(scratch.root, 'no-codex'),
  };
  mkdirSync(join(scratch.root, 'no-sessions'), { recursive: true });
  server = await startTestServer({
    apiRoutes: [(context) => agentRoute(context, { env, sessionRoots: () => [join(scratch.root, 'no-sessions')] })],
  });
  proxy = await startTamperingProxy(server.origin);
  // The raw agent lane posts as the app does after its flush: the turn's canvas is saved first.
  await saveAgentCanvas(server, 'handshake-agent', { nodeId: 'node-1', workingDirectory: scratch.repo });
}, 300_000);
afterAll(async () => {
  await proxy?.close();
  model?.stop();
  await server?.dispose();
  if (scratch) rmSync(scratch.root, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  server.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const receiptRequest = (text: string): CanonicalRequest => ({
  model: 'offline/receipt',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  tools: {},
});

/** One dispatch sent by hand with `hash` (the right one unless given), and what the server kept of it. */
interface RawDispatch {
  hash: string;
  events: StreamEvent[];
  /** How many records the server kept of this dispatch (ask the canvas keeps its turns; the others keep none). */
  kept: number | null;
}

/** The page's own client, run through the proxy: its result, the commits it recorded and the last error shown. */
interface ClientRun {
  ok: boolean;
  hash: string;
  commits: { op: string; meta: Record<string, unknown> }[];
  toast: string | null;
}

interface Lane {
  name: string;
  accepted: 'request-accepted' | 'agent-started';
  failed: 'answer-failed' | 'agent-failed';
  skip: () => string;
  raw(hash?: string): Promise<RawDispatch>;
  client(): Promise<ClientRun>;
}

async function newApp(name: string): Promise<TestApp> {
  const app = await new TestApp({ origin: proxy.origin, token: server.token }, `${name}-${randomUUID()}`).start();
  await app.state.createCanvas(`Handshake ${name}`);
  return app;
}

async function finish(app: TestApp, ok: boolean, hash: string, op: string): Promise<ClientRun> {
  const commits = app.graph.events.filter((event) => event.op === op && event.meta.requestHash !== undefined);
  const run = { ok, hash, commits, toast: app.lastToast()?.code ?? null };
  await app.close();
  return run;
}

const LANES: Lane[] = [
  {
    name: 'a model answer (/api/generate, store/receive-answer)',
    accepted: 'request-accepted',
    failed: 'answer-failed',
    skip: () => '',
    async raw(hash) {
      const request = receiptRequest(`Handshake ${randomUUID()}`);
      const own = hashCanonical(request);
      const events = await collectStreamEvents(
        await post('/api/generate', { request, requestHash: hash ?? own, images: [] }),
      );
      return { hash: own, events, kept: null };
    },
    async client() {
      const app = await newApp('model');
      const node = app.addQuestion('What is the handshake?');
      const ok = await app.state.ask(node);
      const version = app.state.graph?.nodes.get(node);
      const hash = version?.kind === 'question' ? (version.versions[0]?.requestHash ?? '') : '';
      return finish(app, ok, hash, 'commit');
    },
  },
  {
    name: 'ask the canvas (/api/ask-canvas, ask-canvas/ask-canvas-client)',
    accepted: 'request-accepted',
    failed: 'answer-failed',
    skip: () => '',
    async raw(hash) {
      const canvasId = randomUUID();
      const request = receiptRequest('What is on this canvas?');
      const own = hashCanonical(request);
      const layers = { outline: [], chain: [], materials: [], references: [] };
      const body = { turnId: randomUUID(), question: 'What is on it?', focusId: null, layers, request, images: [] };
      const response = await post(`/api/ask-canvas/${canvasId}`, { ...body, requestHash: hash ?? own });
      const events = await collectStreamEvents(response);
      const chat = (await (await server.api(`/api/ask-canvas/${canvasId}`)).json()) as { turns: unknown[] };
      return { hash: own, events, kept: chat.turns.length };
    },
    async client() {
      const app = await newApp('ask');
      app.addQuestion('What is the plan?');
      const client = createAskCanvasClient(createAskCanvasApi({ baseUrl: proxy.origin, token: server.token }));
      const ok = await client.send(app.store, 'What is on this canvas?');
      const hash = (app.graph.events.find((event) => event.op === 'ask-canvas')?.meta.requestHash as string) ?? '';
      return finish(app, ok, hash, 'ask-canvas');
    },
  },
  {
    name: 'an agent turn (/api/agents/turn, store/run-agent-turn)',
    accepted: 'agent-started',
    failed: 'agent-failed',
    skip: () => agentSkip,
    async raw(hash) {
      const text = `${MATCH} Say done.`;
      const own = sha256Hex(text);
      const body = {
        runtime: 'pi',
        canvasId: 'handshake-agent',
        nodeId: 'node-1',
        cwd: scratch.repo,
        guardMode: 'ask',
        text,
        model: piModel,
      };
      const events = await collectStreamEvents(await post('/api/agents/turn', { ...body, receivedHash: hash ?? own }));
      return { hash: own, events, kept: null };
    },
    async client() {
      const app = await newApp('agent');
      app.state.apply({ type: 'set-agent-settings', workingDirectory: scratch.repo, guard: 'ask' });
      const node = app.addQuestion(`${MATCH} Say done.`);
      app.state.apply({ type: 'edit-node', nodeId: node, patch: { model: 'agent:pi' } });
      const ok = await runAgentTurn(app.store, node, createAgentApi({ baseUrl: proxy.origin, token: server.token }));
      const version = app.state.graph?.nodes.get(node);
      const hash = version?.kind === 'question' ? (version.versions[0]?.requestHash ?? '') : '';
      return finish(app, ok, hash, 'commit');
    },
  },
];

describe.each(LANES)('the dispatch handshake: $name', (lane) => {
  const guard = (context: { skip: (note?: string) => void }) => {
    if (lane.skip()) context.skip(lane.skip());
  };

  it('the server accepts a matching hash once, with its own hash, before anything streams', async (context) => {
    guard(context);
    const { hash, events, kept } = await lane.raw();
    const acceptances = events.filter((event) => event.type === lane.accepted);
    expect(acceptances).toHaveLength(1);
    expect(acceptances[0]).toMatchObject(
      lane.accepted === 'agent-started' ? { receivedHash: hash } : { requestHash: hash },
    );
    expect(events.findIndex((event) => event.type === lane.accepted)).toBeLessThan(
      events.findIndex((event) => event.type === 'text-delta'),
    );
    expect(events.some((event) => event.type === lane.failed)).toBe(false);
    if (kept !== null) expect(kept).toBe(1);
  });

  it('the server refuses a mismatching hash with its coded error, hands nothing over and keeps nothing', async (context) => {
    guard(context);
    const { events, kept } = await lane.raw('0'.repeat(64));
    expect(events).toEqual([expect.objectContaining({ type: lane.failed, code: 'hash-mismatch' })]);
    if (kept !== null) expect(kept).toBe(0);
  });

  it('the page commits once, with the hash the server accepted', async (context) => {
    guard(context);
    proxy.mode = 'honest';
    const run = await lane.client();
    expect(run.ok).toBe(true);
    expect(run.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(run.commits.map((commit) => commit.meta.requestHash)).toEqual([run.hash]);
  });

  it('the page refuses an acceptance with another hash: the person is told, nothing is committed', async (context) => {
    guard(context);
    proxy.mode = 'other-hash';
    try {
      const run = await lane.client();
      expect(run.ok).toBe(false);
      expect(run.toast).toBe('hash-mismatch');
      expect(run.commits).toEqual([]);
    } finally {
      proxy.mode = 'honest';
    }
  });

  it('a second acceptance of the same dispatch commits nothing more', async (context) => {
    guard(context);
    proxy.mode = 'twice';
    try {
      const run = await lane.client();
      expect(run.ok).toBe(true);
      expect(run.commits).toHaveLength(1);
    } finally {
      proxy.mode = 'honest';
    }
  });
});
