import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSandbox, type AgentRuntimeId } from '../runtime/agents/index.ts';
import type { AgentScenario } from '../tests/support/agents/agent-scenarios.ts';
import { installRealClis, type RealClis } from '../tests/support/agents/real-agent-harness.ts';
import {
  runAgentScenario,
  type ScenarioConfinement,
  type ScenarioRun,
} from '../tests/support/agents/run-agent-scenario.ts';

/**
 * Issue 27 part 5: the real Pi and Codex inside bubblewrap reach only what the person gave them. The scripted
 * model asks for a file in the person's home and for a loopback URL; what the model received and what the
 * listener saw are the evidence. Each case has its unconfined (or network-on) twin, which must leak: the
 * assertion could fail.
 */
let clis: RealClis | null = null;
let skipReason = '';
const scratches: string[] = [];
let listener: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  const installed = installRealClis();
  if ('skip' in installed) skipReason = installed.skip;
  else if (!('bwrap' in findSandbox(process.env))) skipReason = 'bubblewrap cannot run here';
  else clis = installed;
  if (skipReason) process.stdout.write(`agent-sandbox: skipped — ${skipReason}\n`);
  listener = createServer((socket) => {
    connections += 1;
    socket.end('HTTP/1.0 200 OK\r\n\r\nreached\n');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
}, 300_000);
afterAll(() => {
  listener.close();
  for (const folder of scratches) rmSync(folder, { recursive: true, force: true });
});

const secret = `SECRET-${randomBytes(8).toString('hex')}`;

/** A shell `cat` of a file in the person's home, then a read tool call of it; both allowed on the card. */
const readSecret: AgentScenario = {
  name: 'read-home-secret',
  prompt: 'Read the secret. [agent-read-secret]',
  decisions: ['allow-once', 'allow-once'],
  setup: (_repo, _root, home) => writeFileSync(join(home, 'secret.txt'), `${secret}\n`),
  exchanges: (_outside, home) => [
    {
      match: '[agent-read-secret]',
      replies: [
        { text: 'Catting it.', tools: [{ op: 'shell', command: `cat '${join(home, 'secret.txt')}'` }] },
        { text: 'Reading it.', tools: [{ op: 'read', path: join(home, 'secret.txt') }] },
        { text: 'Done reading.' },
      ],
    },
  ],
};

const fetchLoopback = (): AgentScenario => ({
  name: 'fetch-loopback',
  prompt: 'Fetch the page. [agent-fetch-loopback]',
  decisions: ['allow-once'],
  exchanges: () => [
    {
      match: '[agent-fetch-loopback]',
      replies: [
        {
          text: 'Fetching.',
          tools: [{ op: 'shell', command: `curl -s -m 5 http://127.0.0.1:${port}/; echo fetched` }],
        },
        { text: 'Done fetching.' },
      ],
    },
  ],
});

async function run(
  runtime: AgentRuntimeId,
  scenario: AgentScenario,
  confinement: ScenarioConfinement,
): Promise<ScenarioRun | null> {
  if (!clis) return null;
  const result = await runAgentScenario(runtime, scenario, clis, 'ask', undefined, null, 'continue', confinement);
  scratches.push(result.scratch.root);
  return result;
}

/** The bodies the model received after the turn's first request: the tool results are in them. */
const afterFirst = (requests: string) =>
  requests
    .split('\n')
    .filter((line) => line.includes('"kind":"request"'))
    .slice(1)
    .join('\n');

describe.each(['pi', 'codex'] as const)('the real %s runtime in bubblewrap', (runtime) => {
  it('a file in the person’s home never reaches the model, though the card allowed the read', async (context) => {
    const result = await run(runtime, readSecret, {});
    if (!result) return context.skip(skipReason);
    expect(result.result.status).toBe('completed');
    expect(result.result.text).toContain('Done reading.');
    // The tool results went back to the model (the turn went on), without the file's bytes.
    expect(afterFirst(result.modelRequests)).toContain('secret.txt');
    // Not refused by a card or a policy: the file is simply not there inside the sandbox.
    expect(afterFirst(result.modelRequests)).toMatch(/No such file|ENOENT|not found/i);
    expect(result.modelRequests).not.toContain(secret);
  });

  it('unconfined, the same turn hands the file to the model (the case above is not vacuous)', async (context) => {
    const result = await run(runtime, readSecret, { unconfined: true });
    if (!result) return context.skip(skipReason);
    expect(result.modelRequests).toContain(secret);
  });

  it('with the network switch off, a command cannot reach a loopback listener', async (context) => {
    connections = 0;
    const result = await run(runtime, fetchLoopback(), { networkAccess: false });
    if (!result) return context.skip(skipReason);
    expect(result.result.status).toBe('completed');
    expect(afterFirst(result.modelRequests)).toContain('fetched');
    expect(result.modelRequests).not.toContain('reached');
    expect(connections).toBe(0);
  });

  it('with the switch on, the same command reaches it', async (context) => {
    connections = 0;
    const result = await run(runtime, fetchLoopback(), { networkAccess: true });
    if (!result) return context.skip(skipReason);
    expect(connections).toBeGreaterThan(0);
    expect(afterFirst(result.modelRequests)).toContain('reached');
  });
});
