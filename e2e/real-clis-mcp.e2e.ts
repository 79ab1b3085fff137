import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_HELLO, copyFixtures, type FixtureWorkspace } from '../runtime/index/fixture-roots.ts';
import { installRealClis } from '../tests/support/agents/real-agent-harness.ts';
import { repoRoot } from './support/launch-app.ts';

/**
 * Issue 11.8: the weft MCP server, registered by the real `weft setup mcp`, called from the real Claude Code and
 * Codex CLIs (pinned in scripts/real-clis/, installed into a cache on first use) driven by a scripted model on
 * 127.0.0.1. Every tool is called; the results the CLIs hand back to the model are checked.
 */
const SESSION = 'fb8acab2-b67b-454f-91b5-f87d156f0f09';
const MATCH = '[weft-mcp]';
const PROMPT = `Use the weft tools to explain the history of src/hello.ts. ${MATCH}`;

const WAIT_FOR_WEFT = "for i in $(seq 300); do pgrep -f 'weft.mjs mcp' >/dev/null && break; sleep 0.2; done; sleep 3";
const SEARCH = 'why file history of agent turns recall find';

type Call = { tool: string; input: Record<string, unknown> };
const CALLS: Call[] = [
  { tool: 'why_check', input: { path: CLAUDE_HELLO } },
  { tool: 'why_file', input: { path: CLAUDE_HELLO } },
  { tool: 'find', input: { phrase: 'exporting a greet', in: 'q' } },
  { tool: 'recall_turn', input: { session: SESSION, turn: 1 } },
  { tool: 'recall_turn', input: { session: 'no-such-session', turn: 3 } },
];

/** One scenario per runner: the scripted server takes the first exchange whose `match` the prompt holds. */
function scenario(runner: 'claude' | 'codex'): object {
  const claude = CALLS.map((call) => ({ raw: { claude: { name: `mcp__weft__${call.tool}`, input: call.input } } }));
  const codex = CALLS.map((call) => ({
    raw: { codex: { namespace: 'mcp__weft', name: call.tool, input: call.input, force: true } },
  }));
  return {
    name: 'weft-mcp',
    description: 'Calls every weft MCP tool once (and one failing call), then answers.',
    runners: [runner],
    turns: [{ prompt: PROMPT }],
    exchanges: [
      runner === 'claude' && {
        match: MATCH,
        replies: [{ text: 'Asking weft.', tools: claude }, { text: 'src/hello.ts was written by one Claude turn.' }],
      },
      runner === 'codex' && {
        match: MATCH,
        replies: [
          // Codex starts MCP servers beside the first turn; a tool search before weft connected finds nothing.
          { text: 'Waiting for the MCP servers.', tools: [{ op: 'shell', command: WAIT_FOR_WEFT }] },
          {
            text: 'Looking for the weft tools.',
            tools: [{ raw: { codex: { search: true, input: { query: SEARCH }, force: true } } }],
          },
          { text: 'Asking weft.', tools: codex },
          { text: 'src/hello.ts was written by one Claude turn.' },
        ],
      },
    ].filter(Boolean),
  };
}

interface Report {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  mcpJson: string | null;
  codexToml: string | null;
  requests: { kind: string; body?: unknown }[];
}

/** Loopback only, when this machine lets us make a network namespace (root or unprivileged user namespaces). */
function namespacePrefix(): string[] | null {
  for (const prefix of [
    ['unshare', '--net', '--mount'],
    ['unshare', '--user', '--map-root-user', '--net', '--mount'],
  ]) {
    const probe = spawnSync(prefix[0]!, [...prefix.slice(1), 'ip', 'link', 'set', 'lo', 'up']);
    if (probe.status === 0) return prefix;
  }
  return null;
}

let space: FixtureWorkspace;
let work: string;
let bin = '';
let skipReason = '';
const netns = namespacePrefix();

beforeAll(() => {
  // The pinned CLIs are not project dependencies: `npm test` installs them into ~/.cache/weft-real-clis first.
  const clis = installRealClis();
  if ('skip' in clis) {
    skipReason = clis.skip;
    process.stdout.write(`real-clis-mcp: skipped — ${skipReason}\n`);
    return;
  }
  bin = dirname(clis.claude);
  space = copyFixtures('weft-real-clis-');
  work = mkdtempSync(join(tmpdir(), 'weft-real-clis-run-'));
  for (const runner of ['claude', 'codex'] as const) {
    mkdirSync(join(work, runner, 'scenario'), { recursive: true });
    writeFileSync(join(work, runner, 'scenario', 'weft-mcp.json'), JSON.stringify(scenario(runner), null, 2));
  }
}, 300_000);
afterAll(() => {
  if (space) rmSync(space.directory, { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

function runCli(runner: 'claude' | 'codex'): Report {
  const runWork = join(work, runner, 'run');
  mkdirSync(runWork, { recursive: true });
  const driver = [
    process.execPath,
    join(repoRoot, 'scripts/real-clis/run-real-cli.mjs'),
    '--runner',
    runner,
    '--scenario',
    join(work, runner, 'scenario', 'weft-mcp.json'),
    '--work',
    runWork,
    '--weft-home',
    space.weftHome,
    '--roots',
    space.roots.join(delimiter),
    '--bin',
    bin,
    ...(netns ? ['--netns'] : []),
  ];
  const command = netns ? [...netns, '--', ...driver] : driver;
  const run = spawnSync(command[0]!, command.slice(1), {
    encoding: 'utf8',
    timeout: 200_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`driver failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

/** Tool name (without namespace) → the text each call returned to the model, in call order. */
function claudeResults(report: Report): { tool: string; text: string; isError: boolean }[] {
  type Block = {
    type: string;
    id?: string;
    name?: string;
    tool_use_id?: string;
    content?: unknown;
    is_error?: boolean;
  };
  type Message = { role: string; content: string | Block[] };
  const last = report.requests
    .filter((entry) => entry.kind === 'request')
    .map((entry) => entry.body as { messages?: Message[] } | null)
    .filter((body) => body?.messages?.some((message) => Array.isArray(message.content)))
    .at(-1)!;
  const blocks = last.messages!.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  // In call order (parallel calls may finish in any order).
  const results = new Map(
    blocks.filter((block) => block.type === 'tool_result').map((block) => [block.tool_use_id, block]),
  );
  return blocks
    .filter((block) => block.type === 'tool_use' && results.has(block.id))
    .map((use) => {
      const block = results.get(use.id)!;
      return {
        tool: String(use.name).replace(/^mcp__weft__/, ''),
        text: Array.isArray(block.content)
          ? (block.content as { text?: string }[]).map((part) => part.text ?? '').join('')
          : String(block.content),
        isError: block.is_error === true,
      };
    });
}

function codexResults(report: Report): { tool: string; text: string; isError: boolean }[] {
  type Item = { type?: string; call_id?: string; name?: string; namespace?: string; output?: unknown };
  const last = report.requests
    .filter((entry) => entry.kind === 'request')
    .map((entry) => entry.body as { input?: Item[] } | null)
    .filter((body) => Array.isArray(body?.input))
    .at(-1)!;
  const names = new Map(
    last
      .input!.filter((item) => item.type === 'function_call' && item.namespace === 'mcp__weft')
      .map((item) => [item.call_id, item.name]),
  );
  return last
    .input!.filter((item) => item.type === 'function_call_output' && names.has(item.call_id))
    .map((item) => {
      // Codex hands MCP results over as text parts after a "Wall time" line; it has no error flag of its own.
      const parts = Array.isArray(item.output) ? (item.output as { text?: string }[]) : [{ text: String(item.output) }];
      const text = parts
        .map((part) => part.text ?? '')
        .filter((part) => !/^Wall time: /.test(part))
        .join('');
      return { tool: String(names.get(item.call_id)), text, isError: /^[a-z-]+: /.test(text) };
    });
}

function checkResults(results: { tool: string; text: string; isError: boolean }[]): void {
  expect(results.map((result) => result.tool)).toEqual(CALLS.map((call) => call.tool));
  const json = (index: number) => {
    const text = results[index]!.text;
    return JSON.parse(text.slice(text.search(/[[{]/))) as unknown;
  };
  expect(json(0)).toEqual({ path: CLAUDE_HELLO, history: true });
  const hits = json(1) as { runner: string; turn: number; sessionId: string; turnKey: string }[];
  expect(hits[0]).toMatchObject({ runner: 'claude-code', turn: 1, sessionId: SESSION });
  const found = json(2) as { turnKey: string }[];
  expect(found.some((hit) => hit.turnKey === hits[0]!.turnKey)).toBe(true);
  const turn = json(3) as { turnKey: string; question: string };
  expect(turn.turnKey).toBe(hits[0]!.turnKey);
  expect(turn.question).toContain('Create src/hello.ts');
  expect(results[4]!.text).toMatch(/^turn-not-found: no turn 3 in session no-such-session/);
  expect(results[4]!.isError).toBe(true);
}

describe('weft MCP from the real CLIs', () => {
  it('Claude Code calls every weft tool (mcp__weft__*) and gets the index answers', (context) => {
    if (!bin) return context.skip(skipReason);
    const report = runCli('claude');
    // The CLIs run with a bare environment: WEFT_HOME and the roots reach weft through what setup wrote.
    expect(JSON.parse(report.mcpJson!)).toMatchObject({
      mcpServers: { weft: { env: { WEFT_HOME: space.weftHome, WEFT_SESSION_ROOTS: space.roots.join(delimiter) } } },
    });
    expect(report.exitCode, report.stderr + report.stdout.slice(-2000)).toBe(0);
    checkResults(claudeResults(report));
  });

  it('Codex finds the weft tools through tool search, calls each (namespaced) and gets the index answers', (context) => {
    if (!bin) return context.skip(skipReason);
    const report = runCli('codex');
    expect(report.codexToml).toContain(`WEFT_HOME = ${JSON.stringify(space.weftHome)}`);
    expect(report.exitCode, report.stderr + report.stdout.slice(-2000)).toBe(0);
    checkResults(codexResults(report));
  });
});
