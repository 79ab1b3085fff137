import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCanvas } from '../../tests/support/index.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { agentRoute } from './agent-route.ts';

/**
 * The agent lane's network switch and a node's granted folders are read from the saved canvas (issue 27.3): a body
 * that asks for the network a stored canvas does not grant is refused before any runtime is looked for, a canvas whose
 * saved switch is on gets past that check, and the saved node's grants are checked as working directories are.
 */
let server: TestServer;
let folder: string;
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
  const off = sampleCanvas('network-off');
  const on = sampleCanvas('network-on');
  on.canvas.agentNetwork = true;
  await server.context.canvases.write('network-off', off, { baseRevision: null });
  await server.context.canvases.write('network-on', on, { baseRevision: null });
  const grants = (id: string, folders: string[]) => {
    const canvas = sampleCanvas(id);
    canvas.nodes = canvas.nodes.map((node) => (node.kind === 'question' ? { ...node, agentGrants: folders } : node));
    return server.context.canvases.write(id, canvas, { baseRevision: null });
  };
  await grants('grants-home', [server.home]);
  await grants('grants-folder', [folder]);
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

  it('refuses the network for a turn that names no stored canvas', async () => {
    expect(await codeOf(await turn({ networkAccess: true }))).toBe('agent-network-unsaved');
    expect(await codeOf(await turn({ canvasId: 'never-saved', networkAccess: true }))).toBe('agent-network-unsaved');
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
