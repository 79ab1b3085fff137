import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveAgentCanvas, savedAgentCanvasDocument } from '../../tests/support/saved-agent-canvas.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { agentRoute } from './agent-route.ts';

/**
 * The agent lane decides a turn from the saved canvas (issue 27.3): its target, working directory, guard mode,
 * network switch, granted folders and the sessions it may continue or fork. A body that asks for more than the saved
 * canvas gives is a hostile client, refused with 409 before any runtime is looked for; a turn that passes every check
 * stops at AGENT_NOT_INSTALLED here (no runtime is installed).
 */
let server: TestServer;
let folder: string;
let elsewhere: string;
const text = 'Fetch the page.';

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'weft-agent-network-'));
  server = await startTestServer({
    apiRoutes: [
      (context) =>
        agentRoute(context, {
          // No runtime is installed: a turn that passes the network check stops at AGENT_NOT_INSTALLED.
          env: { WEFT_PI_BIN: join(folder, 'no-pi'), PATH: '' },
          sandboxSupport: () => ({ bwrap: '/usr/bin/bwrap' }),
        }),
    ],
  });
  elsewhere = join(folder, 'elsewhere');
  mkdirSync(elsewhere);
  const save = (id: string, saved: Omit<Parameters<typeof saveAgentCanvas>[2], 'workingDirectory'>) =>
    saveAgentCanvas(server, id, { workingDirectory: folder, ...saved });
  await save('network-off', {});
  await save('network-on', { agentNetwork: true });
  await save('grants-home', { agentGrants: [server.home] });
  await save('grants-folder', { agentGrants: [folder] });
  await save('guard-auto-review', { agentGuard: 'auto-review' });
  await save('guard-allow', { agentGuard: 'allow' });
  const unset = savedAgentCanvasDocument('no-folder-set', { workingDirectory: folder });
  unset.canvas.workingDirectory = null;
  await server.context.canvases.write('no-folder-set', unset, { baseRevision: null });
  // Two canvases with recorded sessions; the first has a second question that recorded one of its own.
  const sessions = savedAgentCanvasDocument('sessions-a', {
    workingDirectory: folder,
    sessions: [
      { runtime: 'pi', ref: '/sessions/a.jsonl' },
      { runtime: 'codex', ref: 'thread-a' },
    ],
  });
  const other = savedAgentCanvasDocument('sessions-a', {
    workingDirectory: folder,
    sessions: [{ runtime: 'pi', ref: '/sessions/a2.jsonl' }],
  }).nodes.find((node) => node.kind === 'question')!;
  sessions.nodes.push({ ...other, id: 'question-2', position: { x: 0, y: 400 } });
  await server.context.canvases.write('sessions-a', sessions, { baseRevision: null });
  await save('sessions-b', { sessions: [{ runtime: 'pi', ref: '/sessions/b.jsonl' }] });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const turn = (extra: Record<string, unknown>) =>
  server.api('/api/agents/turn', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      runtime: 'pi',
      canvasId: 'network-off',
      nodeId: 'question-1',
      cwd: folder,
      guardMode: 'ask',
      text,
      receivedHash: createHash('sha256').update(text).digest('hex'),
      model: 'scripted/model',
      materials: [],
      ...extra,
    }),
  });
const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe('the agent network switch comes from the stored canvas', () => {
  it('refuses a body that switches the network on for a canvas saved with it off', async () => {
    const response = await turn({ canvasId: 'network-off', networkAccess: true });
    expect(response.status).toBe(409);
    expect(await codeOf(response)).toBe('agent-network-unsaved');
  });

  it('refuses the network, like any turn, when the turn names no stored canvas', async () => {
    expect(await codeOf(await turn({ canvasId: undefined, networkAccess: true }))).toBe('agent-target-unsaved');
    expect(await codeOf(await turn({ canvasId: 'never-saved', networkAccess: true }))).toBe('agent-target-unsaved');
  });

  it('lets the saved switch through, and a body asking for less is honoured', async () => {
    expect(await codeOf(await turn({ canvasId: 'network-on', networkAccess: true }))).toBe('AGENT_NOT_INSTALLED');
    expect(await codeOf(await turn({ canvasId: 'network-off', networkAccess: false }))).toBe('AGENT_NOT_INSTALLED');
  });
});

describe("a node's granted folders come from the saved node", () => {
  it("checks each saved grant as a working directory: Weft's own home (which holds a session root) is refused", async () => {
    const response = await turn({ canvasId: 'grants-home' });
    expect(await codeOf(response)).toMatch(/^AGENT_CWD_(WEFT_HOME|SESSION_ROOT)$/);
  });

  it('passes a saved grant of an ordinary folder, and a body cannot add one', async () => {
    expect(await codeOf(await turn({ canvasId: 'grants-folder' }))).toBe('AGENT_NOT_INSTALLED');
    // Not a field of the turn request: a body naming Weft's home as a grant changes nothing.
    expect(await codeOf(await turn({ canvasId: 'network-off', agentGrants: [server.home] }))).toBe(
      'AGENT_NOT_INSTALLED',
    );
  });
});

describe('the turn names a saved question, in the saved working directory', () => {
  it('refuses a turn whose node is not a question of the named saved canvas', async () => {
    for (const extra of [{ nodeId: 'note-1' }, { nodeId: 'question-2' }, { canvasId: 'never-saved' }]) {
      const response = await turn(extra);
      expect(response.status).toBe(409);
      expect(await codeOf(response)).toBe('agent-target-unsaved');
    }
    // The same node id on the canvas that holds it passes.
    expect(await codeOf(await turn({ canvasId: 'sessions-a', nodeId: 'question-2' }))).toBe('AGENT_NOT_INSTALLED');
  });

  it('refuses a working directory other than the saved one, before anything is written there', async () => {
    const response = await turn({ cwd: elsewhere, materials: [{ fileName: 'spec.md', text: 'x' }] });
    expect(response.status).toBe(409);
    expect(await codeOf(response)).toBe('agent-target-unsaved');
    expect(existsSync(join(elsewhere, '.weft'))).toBe(false);
    expect(existsSync(join(folder, '.weft'))).toBe(false);
    expect(await codeOf(await turn({ canvasId: 'no-folder-set' }))).toBe('agent-target-unsaved');
  });
});

describe('the guard mode comes from the saved canvas', () => {
  it('refuses a body asking for a looser mode than saved (ask when none is saved)', async () => {
    for (const [canvasId, guardMode] of [
      ['network-off', 'auto-review'],
      ['network-off', 'allow'],
      ['guard-auto-review', 'allow'],
    ]) {
      const response = await turn({ canvasId, guardMode });
      expect(response.status).toBe(409);
      expect(await codeOf(response)).toBe('agent-guard-unsaved');
    }
  });

  it('lets the saved mode, or a stricter one, through', async () => {
    expect(await codeOf(await turn({ canvasId: 'guard-auto-review', guardMode: 'auto-review' }))).toBe(
      'AGENT_NOT_INSTALLED',
    );
    expect(await codeOf(await turn({ canvasId: 'guard-auto-review', guardMode: 'ask' }))).toBe('AGENT_NOT_INSTALLED');
    expect(await codeOf(await turn({ canvasId: 'guard-allow', guardMode: 'auto-review' }))).toBe('AGENT_NOT_INSTALLED');
  });
});

describe('a turn continues or forks only a session the saved canvas recorded', () => {
  const onA = (session: unknown, runtime = 'pi') => turn({ canvasId: 'sessions-a', runtime, session });

  it("refuses another project's session, and one the node did not record", async () => {
    for (const response of [
      await onA({ continue: '/sessions/b.jsonl' }),
      await onA({ fork: '/sessions/b.jsonl' }),
      await onA({ continue: '/home/someone/.pi/agent/sessions/other.jsonl' }),
      // Continue is the node's own session only; another node's is forked, never continued.
      await onA({ continue: '/sessions/a2.jsonl' }),
      // A thread id recorded by Codex is not a Pi session file.
      await onA({ continue: 'thread-a' }),
    ]) {
      expect(response.status).toBe(409);
      expect(await codeOf(response)).toBe('agent-session-unrecorded');
    }
  });

  it("continues the node's recorded session and forks any recorded on the canvas", async () => {
    expect(await codeOf(await onA({ continue: '/sessions/a.jsonl' }))).toBe('AGENT_NOT_INSTALLED');
    expect(await codeOf(await onA({ fork: '/sessions/a2.jsonl' }))).toBe('AGENT_NOT_INSTALLED');
    expect(await codeOf(await onA({ continue: 'thread-a' }, 'codex'))).toBe('AGENT_NOT_INSTALLED');
  });
});
