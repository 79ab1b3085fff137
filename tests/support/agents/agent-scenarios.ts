import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent, ApprovalDecision } from '../../../runtime/agents/index.ts';

/**
 * The agent-lane scenarios, played by the scripted model to the real Pi and Codex: the e2e tests run them live and
 * scripts/real-clis/record-agent-transcripts.ts records them as the adapters' unit-test fixtures.
 */
export interface AgentScenario {
  name: string;
  /** The prompt carries the match string the scripted model keys on. */
  prompt: string;
  /** Answers to the approval requests, in the order they arrive. */
  decisions: ApprovalDecision[];
  /** Abort the turn when this event arrives. */
  abortOn?: (event: AgentEvent) => boolean;
  /** `home` is the turn's `$HOME`, hidden from a sandboxed runtime. */
  exchanges(outside: string, home: string): object[];
  /** Puts files in the scratch repository before the turn (`root` is the scratch folder around it). */
  setup?(repo: string, root: string, home: string): void;
}

const write = (path: string, content: string) => ({ op: 'write', path, content });

export const AGENT_SCENARIOS: AgentScenario[] = [
  {
    name: 'write-inside-deny-outside',
    prompt: 'Context.\n\nWrite the notes. [agent-write-deny]',
    decisions: ['deny'],
    exchanges: (outside) => [
      {
        match: '[agent-write-deny]',
        replies: [
          { text: 'Writing inside.', tools: [write('notes/inside.txt', 'inside\n')] },
          { text: 'Writing outside.', tools: [write(join(outside, 'denied.txt'), 'denied\n')] },
          { text: 'Done: one file written, one refused.' },
        ],
      },
    ],
  },
  {
    name: 'allow-once-outside',
    prompt: 'Write outside. [agent-allow-once]',
    decisions: ['allow-once'],
    exchanges: (outside) => [
      {
        match: '[agent-allow-once]',
        replies: [
          { text: 'Writing outside.', tools: [write(join(outside, 'allowed.txt'), 'allowed\n')] },
          { text: 'Written.' },
        ],
      },
    ],
  },
  {
    name: 'parallel-approvals',
    prompt: 'Write two files outside at once. [agent-parallel]',
    decisions: ['allow-once', 'deny'],
    exchanges: (outside) => [
      {
        match: '[agent-parallel]',
        replies: [
          {
            text: 'Two writes.',
            tools: [write(join(outside, 'first.txt'), 'first\n'), write(join(outside, 'second.txt'), 'second\n')],
          },
          { text: 'Both asked.' },
        ],
      },
    ],
  },
  {
    name: 'continue-session',
    prompt: 'Write the first note. [agent-first]',
    decisions: [],
    exchanges: () => [
      {
        match: '[agent-first]',
        replies: [{ text: 'First.', tools: [write('notes/one.txt', 'one\n')] }, { text: 'Wrote the first note.' }],
      },
      {
        match: '[agent-second]',
        replies: [{ text: 'Second.', tools: [write('notes/two.txt', 'two\n')] }, { text: 'Wrote the second note.' }],
      },
    ],
  },
  {
    name: 'shell-writes-file',
    prompt: 'Make a file with the shell. [agent-shell-file]',
    // Pi's guard asks before every shell command; Codex runs it inside its sandbox without asking.
    decisions: ['allow-once'],
    exchanges: () => [
      {
        match: '[agent-shell-file]',
        replies: [
          { text: 'Running it.', tools: [{ op: 'shell', command: 'echo x > made-by-shell.txt' }] },
          { text: 'Made made-by-shell.txt.' },
        ],
      },
    ],
  },
  {
    name: 'allow-for-turn',
    prompt: 'Write two files outside, one after the other. [agent-allow-turn]',
    decisions: ['allow-turn'],
    exchanges: (outside) => [
      {
        match: '[agent-allow-turn]',
        replies: [
          { text: 'First.', tools: [write(join(outside, 'turn-one.txt'), 'one\n')] },
          { text: 'Second.', tools: [write(join(outside, 'turn-two.txt'), 'two\n')] },
          { text: 'Both written.' },
        ],
      },
    ],
  },
  {
    name: 'project-config-ignored',
    prompt: 'Say hello. [agent-project-config]',
    decisions: [],
    // A repository's own Codex config with an MCP server that leaves a mark when it is started.
    setup: (repo, root) => {
      const server = join(root, 'project-mcp-server.sh');
      writeFileSync(server, `#!/bin/sh\ntouch '${join(root, 'project-mcp-started')}'\nsleep 2\n`);
      chmodSync(server, 0o755);
      mkdirSync(join(repo, '.codex'));
      writeFileSync(join(repo, '.codex', 'config.toml'), `[mcp_servers.project]\ncommand = "${server}"\n`);
    },
    exchanges: () => [{ match: '[agent-project-config]', replies: [{ text: 'Hello.' }] }],
  },
  {
    name: 'abort-mid-turn',
    prompt: 'Wait a while. [agent-abort]',
    decisions: ['allow-once'],
    abortOn: (event) => event.type === 'tool-start',
    exchanges: () => [
      {
        match: '[agent-abort]',
        replies: [{ text: 'Sleeping.', tools: [{ op: 'shell', command: 'sleep 120' }] }, { text: 'Woke up.' }],
      },
    ],
  },
];
