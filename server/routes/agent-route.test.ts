import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { AGENT_SCENARIOS } from '../../tests/support/agents/agent-scenarios.ts';
import {
  configurePi,
  installRealClis,
  makeScratch,
  startScriptedModel,
  type RealClis,
  type Scratch,
  type ScriptedModel,
} from '../../tests/support/agents/real-agent-harness.ts';
import { startScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { readStreamEvents } from '../../tests/support/sse-client.ts';
import { saveAgentCanvas } from '../../tests/support/saved-agent-canvas.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { agentRoute } from './agent-route.ts';

/** The agent routes on a real server, driving the real pinned Pi against the scripted model. */
let clis: RealClis | null = null;
let skipReason = '';
let scratch: Scratch;
let model: ScriptedModel;
let server: TestServer;
let piModel = '';

const MATERIAL = {
  fileName: '1-lexer-spec.md',
  text: '[Material: Lexer spec]\nSource: pasted text\n\nTokens are separated by MATERIAL-SPACES.',
};
let sessionRoot = '';

const scenario = AGENT_SCENARIOS.find((entry) => entry.name === 'allow-once-outside')!;

beforeAll(async () => {
  const installed = installRealClis();
  if ('skip' in installed) {
    skipReason = installed.skip;
    process.stdout.write(`agent-route: real-Pi cases skipped — ${skipReason}\n`);
  } else clis = installed;
  scratch = makeScratch('weft-agent-route-');
  model = await startScriptedModel(scratch.root);
  model.addScenario({
    name: scenario.name,
    runners: ['pi'],
    exchanges: [
      ...scenario.exchanges(scratch.outside, scratch.home),
      {
        match: '[agent-read-material]',
        replies: [
          {
            text: 'Reading the material.',
            tools: [{ op: 'read', path: `.weft/materials/node-1/${MATERIAL.fileName}` }],
          },
          { text: 'Read it.' },
        ],
      },
      {
        match: '[agent-stop-after-shell]',
        replies: [
          {
            text: 'Making a file, then sleeping.',
            tools: [{ op: 'shell', command: 'echo x > stopped-shell.txt; sleep 120' }],
          },
          { text: 'Woke up.' },
        ],
      },
      {
        match: '[agent-allow-turn]',
        replies: [
          {
            text: 'First write.',
            tools: [{ op: 'write', path: join(scratch.outside, 'turn-1.txt'), content: 'one\n' }],
          },
          {
            text: 'Second write.',
            tools: [{ op: 'write', path: join(scratch.outside, 'turn-2.txt'), content: 'two\n' }],
          },
          { text: 'Both written.' },
        ],
      },
    ],
  });
  piModel = configurePi(scratch, model.base('pi', scenario.name, scratch.repo));
  const env = {
    ...scratch.env,
    WEFT_PI_BIN: clis?.pi ?? join(scratch.root, 'no-pi'),
    WEFT_CODEX_BIN: join(scratch.root, 'no-codex'),
    // The person granted the outside folder: inside the sandbox it exists, and the cards decide there.
    WEFT_AGENT_GRANTED_PATHS: scratch.outside,
  };
  sessionRoot = join(scratch.root, 'session-root');
  mkdirSync(join(sessionRoot, 'project'), { recursive: true });
  server = await startTestServer({
    apiRoutes: [
      (context) => agentRoute(context, { env, approvalTimeoutMs: 20_000, sessionRoots: () => [sessionRoot] }),
    ],
  });
  // The app saves the canvas before a turn; the server reads the turn's folder and guard from it. Auto-review
  // saved lets a turn ask for it or for the stricter ask.
  const saved = { nodeId: 'node-1', agentGuard: 'auto-review' } as const;
  await saveAgentCanvas(server, 'canvas-repo', { ...saved, workingDirectory: scratch.repo });
  await saveAgentCanvas(server, 'canvas-missing', { ...saved, workingDirectory: join(scratch.root, 'missing') });
  await saveAgentCanvas(server, 'canvas-session-root', { ...saved, workingDirectory: join(sessionRoot, 'project') });
}, 300_000);
afterAll(async () => {
  model?.stop();
  await server?.dispose();
  if (scratch) rmSync(scratch.root, { recursive: true, force: true });
});

const sha = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

function turnBody(text: string, overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    runtime: 'pi',
    canvasId: 'canvas-repo',
    nodeId: 'node-1',
    cwd: scratch.repo,
    guardMode: 'ask',
    text,
    receivedHash: sha(text),
    model: piModel,
    ...overrides,
  });
}

describe('agent routes', () => {
  it('refuses a prompt whose hash does not match before any runtime starts', async (context) => {
    // The route asks for an installed runtime first (AGENT_NOT_INSTALLED), so these need Pi too.
    if (!clis) return context.skip(skipReason);
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody('Write outside. [agent-allow-once]', { receivedHash: 'a'.repeat(64) }),
    });
    const events: StreamEvent[] = [];
    for await (const event of readStreamEvents(response)) events.push(event);
    expect(events).toEqual([expect.objectContaining({ type: 'agent-failed', code: 'hash-mismatch' })]);
    expect(existsSync(join(scratch.outside, 'allowed.txt'))).toBe(false);
  });

  it('refuses a working directory that is not a folder, with a coded error', async () => {
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody('x', { canvasId: 'canvas-missing', cwd: join(scratch.root, 'missing') }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('AGENT_CWD_INVALID');
  });

  it('checks a typed working directory: absolute, existing, a folder, not under a session root (coded errors)', async () => {
    const check = async (path: string) => {
      const response = await server.api('/api/agents/folder', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path }),
      });
      const body = (await response.json()) as { path?: string; error?: { code: string } };
      return { status: response.status, code: body.error?.code ?? null, path: body.path ?? null };
    };
    const file = join(scratch.root, 'a-file.txt');
    writeFileSync(file, 'x');
    const link = join(scratch.root, 'link-to-sessions');
    symlinkSync(join(sessionRoot, 'project'), link);
    expect(await check(scratch.repo)).toEqual({ status: 200, code: null, path: scratch.repo });
    expect(await check('relative/folder')).toMatchObject({ status: 400, code: 'AGENT_CWD_INVALID' });
    expect(await check(join(scratch.root, 'missing'))).toMatchObject({ status: 400, code: 'AGENT_CWD_INVALID' });
    expect(await check(file)).toMatchObject({ status: 400, code: 'AGENT_CWD_INVALID' });
    expect(await check(sessionRoot)).toMatchObject({ status: 400, code: 'AGENT_CWD_SESSION_ROOT' });
    expect(await check(join(sessionRoot, 'project'))).toMatchObject({ status: 400, code: 'AGENT_CWD_SESSION_ROOT' });
    // A link that leads into a session root is judged by where it leads.
    expect(await check(link)).toMatchObject({ status: 400, code: 'AGENT_CWD_SESSION_ROOT' });
    // A folder that holds a session root, or Weft's own home, is refused too: the agent writes anywhere in it.
    expect(await check(scratch.root)).toMatchObject({ status: 400, code: 'AGENT_CWD_SESSION_ROOT' });
    expect(await check(server.home)).toMatchObject({ status: 400, code: 'AGENT_CWD_WEFT_HOME' });
  });

  it('a turn in a folder under a session root is refused before anything is written there', async () => {
    const cwd = join(sessionRoot, 'project');
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody('x', { canvasId: 'canvas-session-root', cwd, materials: [MATERIAL] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('AGENT_CWD_SESSION_ROOT');
    expect(existsSync(join(cwd, '.weft'))).toBe(false);
  });

  it('an answer for a card that is not open is refused with 409', async () => {
    const response = await server.api('/api/agents/turns/t-none/approvals/r-none', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'allow-once' }),
    });
    expect(response.status).toBe(409);
  });

  it('streams a Pi turn: the hash of the received text, a card answered over HTTP, the footprint, the changed file', async (context) => {
    if (!clis) return context.skip(skipReason);
    const listing = (await (await server.api('/api/agents')).json()) as {
      runtimes: { runtime: string; installed: boolean; models: { id: string }[] }[];
    };
    // Pi's own configured models (its models.json), listed by the real Pi.
    expect(listing.runtimes).toContainEqual(
      expect.objectContaining({ runtime: 'pi', installed: true, models: [expect.objectContaining({ id: piModel })] }),
    );
    expect(listing.runtimes).toContainEqual(expect.objectContaining({ runtime: 'codex', installed: false }));
    const text = 'Context block.\n\nWrite outside. [agent-allow-once]';
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody(text),
    });
    const events: StreamEvent[] = [];
    for await (const event of readStreamEvents(response)) {
      events.push(event);
      if (event.type === 'agent-approval-requested') {
        const answer = await server.api(
          `/api/agents/turns/${event.turnId}/approvals/${encodeURIComponent(event.request.requestId)}`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ decision: 'allow-once' }),
          },
        );
        expect(answer.status).toBe(200);
      }
    }
    const target = join(scratch.outside, 'allowed.txt');
    expect(events[0]).toEqual(expect.objectContaining({ type: 'agent-started', receivedHash: sha(text) }));
    // The commit's moment: Pi's stdin took the prompt, before anything it answered.
    const delivered = events.findIndex((event) => event.type === 'agent-prompt-delivered');
    expect(events[delivered]).toEqual({ type: 'agent-prompt-delivered', receivedHash: sha(text) });
    expect(delivered).toBeLessThan(events.findIndex((event) => event.type === 'text-delta'));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'agent-approval-decided', decision: 'allow-once', by: 'person' }),
    );
    expect(events).toContainEqual(expect.objectContaining({ type: 'agent-session' }));
    expect(events.at(-1)).toEqual(
      expect.objectContaining({ type: 'agent-finished', status: 'completed', changedFiles: [target] }),
    );
    expect(readFileSync(target, 'utf8')).toBe('allowed\n');
  }, 120_000);

  it('copies the materials into the working directory before Pi starts; Pi reads them there without a card', async (context) => {
    if (!clis) return context.skip(skipReason);
    const text = 'Materials are files in .weft/materials/node-1.\n\nRead the spec. [agent-read-material]';
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody(text, { materials: [MATERIAL] }),
    });
    const events: StreamEvent[] = [];
    for await (const event of readStreamEvents(response)) events.push(event);
    // The copy left with the turn, and so did the .weft Weft made for it: nothing shows in the repository.
    expect(existsSync(join(scratch.repo, '.weft'))).toBe(false);
    expect(
      spawnSync('git', ['status', '--porcelain=v1', '--untracked-files=all'], { cwd: scratch.repo, encoding: 'utf8' })
        .stdout,
    ).toBe('');
    expect(events.some((event) => event.type === 'agent-approval-requested')).toBe(false);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'agent-footprint',
        footprint: expect.objectContaining({ toolName: 'read', files: [expect.objectContaining({ op: 'read' })] }),
      }),
    );
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'agent-finished', status: 'completed' }));
    // What Pi read went back to the model as the tool's result: the material's text, provenance included.
    expect(readFileSync(model.requestLog, 'utf8')).toContain('MATERIAL-SPACES');
  }, 120_000);

  it('every decision reaches the stream with its tool and path, the ones "allow for this turn" makes without a card too', async (context) => {
    if (!clis) return context.skip(skipReason);
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody('Write twice outside. [agent-allow-turn]'),
    });
    const events: StreamEvent[] = [];
    for await (const event of readStreamEvents(response)) {
      events.push(event);
      if (event.type === 'agent-approval-requested')
        await server.api(`/api/agents/turns/${event.turnId}/approvals/${encodeURIComponent(event.request.requestId)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'allow-turn' }),
        });
    }
    expect(events.filter((event) => event.type === 'agent-approval-requested')).toHaveLength(1);
    const decided = events.filter((event) => event.type === 'agent-approval-decided');
    expect(decided.map(({ toolName, leaves, decision, by }) => ({ toolName, leaves, decision, by }))).toEqual([
      { toolName: 'write', leaves: join(scratch.outside, 'turn-1.txt'), decision: 'allow-turn', by: 'person' },
      { toolName: 'write', leaves: join(scratch.outside, 'turn-2.txt'), decision: 'allow-turn', by: 'gate' },
    ]);
    expect(readFileSync(join(scratch.outside, 'turn-2.txt'), 'utf8')).toBe('two\n');
  }, 120_000);

  it('a material file name that could leave the folder is refused; nothing is handed to the runtime', async (context) => {
    // The route asks for an installed runtime first (AGENT_NOT_INSTALLED), so these need Pi too.
    if (!clis) return context.skip(skipReason);
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody('Write outside. [agent-allow-once]', { materials: [{ fileName: '../../escape.md', text: 'x' }] }),
    });
    const events: StreamEvent[] = [];
    for await (const event of readStreamEvents(response)) events.push(event);
    expect(events).toEqual([expect.objectContaining({ type: 'agent-failed', code: 'AGENT_MATERIALS_INVALID' })]);
    expect(existsSync(join(scratch.repo, '../escape.md'))).toBe(false);
  });

  it('auto-review without a judge falls back to the person: the card appears, deny writes nothing', async (context) => {
    if (!clis) return context.skip(skipReason);
    const target = join(scratch.outside, 'allowed.txt');
    rmSync(target, { force: true });
    const text = 'Write outside. [agent-allow-once]';
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody(text, { guardMode: 'auto-review' }),
    });
    const events: StreamEvent[] = [];
    for await (const event of readStreamEvents(response)) {
      events.push(event);
      if (event.type === 'agent-approval-requested')
        await server.api(`/api/agents/turns/${event.turnId}/approvals/${encodeURIComponent(event.request.requestId)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'deny' }),
        });
    }
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'agent-approval-decided', decision: 'deny', by: 'person' }),
    );
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'agent-finished', changedFiles: [] }));
    expect(existsSync(target)).toBe(false);
  }, 120_000);

  it('Stop over HTTP aborts the turn while the stream goes on: the stopped turn keeps its footprints, the shell-found one too', async (context) => {
    if (!clis) return context.skip(skipReason);
    const made = join(scratch.repo, 'stopped-shell.txt');
    const response = await server.api('/api/agents/turn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: turnBody('Make a file, then wait. [agent-stop-after-shell]'),
    });
    const events: StreamEvent[] = [];
    try {
      for await (const event of readStreamEvents(response)) {
        events.push(event);
        if (event.type !== 'agent-approval-requested') continue;
        const post = (path: string, body: object) =>
          server.api(`/api/agents/turns/${event.turnId}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        await post(`/approvals/${encodeURIComponent(event.request.requestId)}`, { decision: 'allow-once' });
        // The shell has made its file and sleeps: Stop now.
        await expect.poll(() => existsSync(made), { timeout: 20_000 }).toBe(true);
        expect((await post('/stop', {})).status).toBe(200);
      }
      const last = events.at(-1);
      expect(last).toEqual(
        expect.objectContaining({ type: 'agent-finished', status: 'aborted', changedFiles: [made] }),
      );
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'agent-footprint',
          footprint: expect.objectContaining({ files: [{ path: made, op: 'created', by: 'shell' }] }),
        }),
      );
      const turnId = (events[0] as { turnId: string }).turnId;
      const again = await server.api(`/api/agents/turns/${turnId}/stop`, { method: 'POST' });
      expect(again.status).toBe(409);
    } finally {
      rmSync(made, { force: true });
    }
  }, 120_000);

  describe('auto-review with a judge', () => {
    /** One auto-review turn whose decision model answers `allow` with this probability; any card is denied. */
    async function judgedTurn(allow: number) {
      const judge = await startScriptedProvider();
      judge.setDefault({ text: JSON.stringify({ allow, deny: 1 - allow }) });
      try {
        const saved = await server.api('/api/settings', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${judge.url}/v1`, models: ['decider'] }],
            judgeModelId: 'judge/decider',
          }),
        });
        expect(saved.status).toBe(200);
        const response = await server.api('/api/agents/turn', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: turnBody('Write outside. [agent-allow-once]', { guardMode: 'auto-review' }),
        });
        const events: StreamEvent[] = [];
        for await (const event of readStreamEvents(response)) {
          events.push(event);
          if (event.type === 'agent-approval-requested')
            await server.api(
              `/api/agents/turns/${event.turnId}/approvals/${encodeURIComponent(event.request.requestId)}`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ decision: 'deny' }),
              },
            );
        }
        return { events, judged: judge.requests.length };
      } finally {
        await judge.close();
      }
    }
    const target = () => join(scratch.outside, 'allowed.txt');

    it('at or above the threshold the judge allows: no card, the decision is the judge’s', async (context) => {
      if (!clis) return context.skip(skipReason);
      rmSync(target(), { force: true });
      const { events, judged } = await judgedTurn(0.95);
      expect(judged).toBeGreaterThan(0);
      expect(events.some((event) => event.type === 'agent-approval-requested')).toBe(false);
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'agent-approval-decided', decision: 'allow-once', by: 'judge' }),
      );
      expect(readFileSync(target(), 'utf8')).toBe('allowed\n');
      rmSync(target(), { force: true });
    }, 120_000);

    it('below the threshold the person is asked: the card appears, and denied, nothing is written', async (context) => {
      if (!clis) return context.skip(skipReason);
      rmSync(target(), { force: true });
      const { events, judged } = await judgedTurn(0.3);
      expect(judged).toBeGreaterThan(0);
      expect(events.filter((event) => event.type === 'agent-approval-requested')).toHaveLength(1);
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'agent-approval-decided', decision: 'deny', by: 'person' }),
      );
      expect(existsSync(target())).toBe(false);
    }, 120_000);
  });
});
