import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_CHANGES_TOOL, type AgentVersion } from '../protocol/index.ts';
import { agentCommit, buildAgentPrompt, TestCanvas, upstreamSnapshot } from '../src/core/index.ts';
import { changedFiles, type AgentRuntimeId } from '../runtime/agents/index.ts';
import { WhyIndex } from '../runtime/index/index.ts';
import { AGENT_SCENARIOS, type AgentScenario } from '../tests/support/agents/agent-scenarios.ts';
import { installRealClis, type RealClis } from '../tests/support/agents/real-agent-harness.ts';
import { runAgentScenario, type ScenarioRun } from '../tests/support/agents/run-agent-scenario.ts';

/**
 * Issue 14: the agent lane against the real pinned Pi (`pi --mode rpc` with Weft's guard extension) and Codex
 * (`codex app-server`), each driven by the scripted model on 127.0.0.1 in a scratch git repository.
 */
let clis: RealClis | null = null;
let skipReason = '';
const scratches: string[] = [];

beforeAll(() => {
  const installed = installRealClis();
  if ('skip' in installed) {
    skipReason = installed.skip;
    process.stdout.write(`agents-real-clis: skipped — ${skipReason}\n`);
  } else clis = installed;
}, 300_000);
afterAll(() => {
  for (const folder of scratches) rmSync(folder, { recursive: true, force: true });
});

const scenario = (name: string): AgentScenario => AGENT_SCENARIOS.find((entry) => entry.name === name)!;

async function run(
  runtime: AgentRuntimeId,
  name: string,
  message?: string,
  followUp: string | null = null,
  followUpMode: 'continue' | 'fork' = 'continue',
): Promise<ScenarioRun | null> {
  if (!clis) return null;
  const result = await runAgentScenario(runtime, scenario(name), clis, 'ask', message, followUp, followUpMode);
  scratches.push(result.scratch.root);
  return result;
}

/** Every prompt the CLI's stdin carried, in order. */
function promptsOnStdin(runtime: AgentRuntimeId, stdinLog: string): string[] {
  return stdinLog
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      const record = JSON.parse(line) as {
        type?: string;
        message?: string;
        method?: string;
        params?: { input?: { text: string }[] };
      };
      if (runtime === 'pi' && record.type === 'prompt') return [record.message!];
      if (runtime === 'codex' && record.method === 'turn/start') return [record.params!.input![0]!.text];
      return [];
    });
}

/** The one prompt the CLI's stdin carried, read back from the bytes a `tee` in front of it recorded. */
function promptOnStdin(runtime: AgentRuntimeId, stdinLog: string): string {
  const [prompt] = promptsOnStdin(runtime, stdinLog);
  if (prompt === undefined) throw new Error('no prompt on stdin');
  return prompt;
}

describe.each(['pi', 'codex'] as const)('the real %s runtime', (runtime) => {
  it('writes inside the working directory: a footprint names the file; the write outside asks and, denied, writes nothing', async (context) => {
    const result = await run(runtime, 'write-inside-deny-outside');
    if (!result) return context.skip(skipReason);
    const { repo, outside } = result.scratch;
    expect(readFileSync(join(repo, 'notes/inside.txt'), 'utf8')).toBe('inside\n');
    expect(changedFiles(result.result.footprints, repo)).toEqual([join(repo, 'notes/inside.txt')]);
    expect(result.asked).toHaveLength(1);
    expect(result.asked[0]!.leaves).toBe(join(outside, 'denied.txt'));
    expect(existsSync(join(outside, 'denied.txt'))).toBe(false);
    expect(result.result.approvals).toEqual([{ request: result.asked[0], decision: 'deny' }]);
    expect(result.result.status).toBe('completed');
  });

  it('allow once on the card lets the write outside happen', async (context) => {
    const result = await run(runtime, 'allow-once-outside');
    if (!result) return context.skip(skipReason);
    expect(readFileSync(join(result.scratch.outside, 'allowed.txt'), 'utf8')).toBe('allowed\n');
    expect(result.result.approvals.map((entry) => entry.decision)).toEqual(['allow-once']);
  });

  it('two tool calls in one reply each get their own request: the allowed one is written, the denied one not', async (context) => {
    const result = await run(runtime, 'parallel-approvals');
    if (!result) return context.skip(skipReason);
    const { outside } = result.scratch;
    expect(result.asked.map((request) => request.leaves)).toEqual([
      join(outside, 'first.txt'),
      join(outside, 'second.txt'),
    ]);
    expect(new Set(result.asked.map((request) => request.requestId)).size).toBe(2);
    expect(existsSync(join(outside, 'first.txt'))).toBe(true);
    expect(existsSync(join(outside, 'second.txt'))).toBe(false);
  });

  it('a file a shell command writes is in the footprints and the downstream line names it', async (context) => {
    const result = await run(runtime, 'shell-writes-file');
    if (!result) return context.skip(skipReason);
    const { repo } = result.scratch;
    const made = join(repo, 'made-by-shell.txt');
    expect(readFileSync(made, 'utf8')).toBe('x\n');
    const found = result.result.footprints.find((footprint) => footprint.toolName === WORKSPACE_CHANGES_TOOL);
    expect(found?.files).toEqual([{ path: made, op: 'created', by: 'shell' }]);
    // Told as a footprint event too, so it reaches the node like the tool calls.
    expect(result.events).toContainEqual({ type: 'tool-end', footprint: found });
    const changed = changedFiles(result.result.footprints, repo);
    expect(changed).toEqual([made]);

    const canvas = new TestCanvas();
    const asked = canvas.addQuestion('Make a file with the shell.');
    const agent: AgentVersion = {
      runtime,
      sessionId: result.result.sessionId,
      sessionFile: result.result.sessionFile,
      receivedHash: 'a'.repeat(64),
      footprints: result.result.footprints.map((footprint) => ({ ...footprint, args: footprint.args ?? null })),
      approvals: [],
      changedFiles: changed,
    };
    canvas.apply({
      type: 'add-version',
      nodeId: asked,
      version: {
        text: result.result.text,
        question: 'Make a file with the shell.',
        model: `agent:${runtime}`,
        requestHash: agent.receivedHash,
        ...upstreamSnapshot(canvas.graph, asked),
        origin: 'generated',
        status: 'complete',
        branchOf: null,
        agent,
      },
    });
    const child = canvas.addQuestion('What changed?');
    canvas.wire(asked, child);
    expect(JSON.stringify(canvas.compiled(child).messages)).toContain(
      `tool call changed ${made}; their contents were left out of this context]`,
    );
  });

  it('"allow for this turn" answers the later request itself, and both decisions are reported', async (context) => {
    const result = await run(runtime, 'allow-for-turn');
    if (!result) return context.skip(skipReason);
    const { outside } = result.scratch;
    expect(result.asked).toHaveLength(1);
    expect(result.decided.map((entry) => [entry.decision, entry.by])).toEqual([
      ['allow-turn', 'person'],
      ['allow-turn', 'gate'],
    ]);
    expect(result.result.approvals.map((entry) => entry.decision)).toEqual(['allow-turn', 'allow-turn']);
    expect(readFileSync(join(outside, 'turn-one.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(outside, 'turn-two.txt'), 'utf8')).toBe('two\n');
  });

  it('Stop aborts the turn mid-command, long before the 120 s command would end', async (context) => {
    const started = Date.now();
    const result = await run(runtime, 'abort-mid-turn');
    if (!result) return context.skip(skipReason);
    expect(result.result.status).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(90_000);
  });

  it('the commit hash is the hash of the bytes the runtime read on stdin; its session file is in the why index', async (context) => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('Where do notes go?');
    canvas.answer(parent, 'Under notes/, one file per topic. Ünïcödé\u2028stays one line.');
    const target = canvas.addQuestion('Write the notes. [agent-write-deny]');
    canvas.wire(parent, target);
    const prompt = buildAgentPrompt(canvas.compiled(target), { continued: false });
    const { receivedHash } = agentCommit(target, prompt, { runtime, model: 'scripted' });
    const result = await run(runtime, 'write-inside-deny-outside', prompt.text);
    if (!result) return context.skip(skipReason);
    const received = promptOnStdin(runtime, result.stdinLog);
    expect(createHash('sha256').update(Buffer.from(received, 'utf8')).digest('hex')).toBe(receivedHash);
    expect(result.result.sessionFile).toBeTruthy();
    expect(existsSync(result.result.sessionFile!)).toBe(true);
    expect(readFileSync(result.result.sessionFile!, 'utf8')).toContain('Write the notes.');

    // The session the runtime wrote is in the why index: the file the turn wrote points back at that session.
    const roots =
      runtime === 'pi'
        ? join(result.scratch.home, '.pi/agent/sessions')
        : join(result.scratch.home, '.weft-codex/sessions');
    const index = WhyIndex.open({ env: { WEFT_HOME: join(result.scratch.root, 'weft'), WEFT_SESSION_ROOTS: roots } });
    try {
      await index.index();
      const { hits } = index.why(join(result.scratch.repo, 'notes/inside.txt'), { cwd: '/' });
      expect(hits).toContainEqual(expect.objectContaining({ runner: runtime, sessionId: result.result.sessionId }));
    } finally {
      index.close();
    }
  });

  it('asking again continues the session: the runtime gets the question only and still has the first turn', async (context) => {
    const result = await run(runtime, 'continue-session', undefined, 'Now the second note. [agent-second]');
    if (!result) return context.skip(skipReason);
    const second = result.followUp!;
    expect(second.status).toBe('completed');
    expect(second.sessionId).toBe(result.result.sessionId);
    expect(readFileSync(join(result.scratch.repo, 'notes/two.txt'), 'utf8')).toBe('two\n');
    // The last model request of the second turn still carries the first prompt: the session was continued.
    const requests = result.modelRequests
      .split('\n')
      .filter((line) => line.includes('"kind":"request"') && line.includes('[agent-second]'));
    expect(requests.at(-1)).toContain('[agent-first]');
    expect(promptsOnStdin(runtime, result.stdinLog)).toEqual([
      'Write the first note. [agent-first]',
      'Now the second note. [agent-second]',
    ]);
  });

  it('a child wired from an agent node forks its session: a new session that still holds the parent turn', async (context) => {
    const result = await run(runtime, 'continue-session', undefined, 'Now the second note. [agent-second]', 'fork');
    if (!result) return context.skip(skipReason);
    const forked = result.followUp!;
    expect(forked.status).toBe('completed');
    expect(forked.sessionId).not.toBe(result.result.sessionId);
    expect(readFileSync(join(result.scratch.repo, 'notes/two.txt'), 'utf8')).toBe('two\n');
    const requests = result.modelRequests
      .split('\n')
      .filter((line) => line.includes('"kind":"request"') && line.includes('[agent-second]'));
    expect(requests.at(-1)).toContain('[agent-first]');
    // The fork got the new ask only: its session already holds the parent's turn (the request above shows it).
    expect(promptsOnStdin(runtime, result.stdinLog)).toEqual([
      'Write the first note. [agent-first]',
      'Now the second note. [agent-second]',
    ]);
  });
});

describe('the real codex runtime and a repository of its own config', () => {
  it("never loads the repository's .codex/config.toml: its MCP server is not started, the folder not marked trusted", async (context) => {
    const result = await run('codex', 'project-config-ignored');
    if (!result) return context.skip(skipReason);
    expect(result.result.status).toBe('completed');
    expect(existsSync(join(result.scratch.root, 'project-mcp-started'))).toBe(false);
    const config = readFileSync(join(result.scratch.home, '.weft-codex', 'config.toml'), 'utf8');
    expect(config).not.toContain('trust_level = "trusted"');
  });
});
