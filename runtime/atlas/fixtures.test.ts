import { FIXTURES } from '../../tests/support/fixtures-directory.ts';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionSchema } from '../../protocol/atlas-session.ts';
import { Fence } from './fence.ts';
import { readSessionFile } from './read-session-file.ts';
import type { AtlasSession } from './session-builder.ts';

/**
 * Facts read by hand from the raw JSONL of every fixture (turn counts = human prompts, the files each
 * turn's tools touched with their op, error flags, models, subagent links). Not snapshots of the adapter.
 */
const fence = new Fence([FIXTURES]);

interface Expected {
  file: string;
  runner: 'claude-code' | 'codex' | 'pi';
  sessionId: string;
  turns: number;
  models: string[];
  cwd?: string | null;
  gitBranch?: string | null;
  /** Per turn: `<op> <absolute file>` of every step that named a file. */
  touched?: string[][];
  /** Per turn: the ops of all steps, `!` marking an error result. */
  ops?: string[];
  isSubagent?: boolean;
  parentSessionId?: string | null;
  parentTurnKey?: string | null;
  subagentsOfTurn1?: string[];
  compactions?: number;
  firstUserText?: string;
}

const R = '/tmp/realsessions/out';
const real = (runner: string, name: string): string => `${R}/${runner}/${name}/repo`;

const TABLE: Expected[] = [
  // Real sessions recorded by the three CLIs against a scripted model (tests/fixtures/real-sessions).
  {
    file: 'real-sessions/claude/basic-tools/projects/-tmp-realsessions-out-claude-basic-tools-repo/fb8acab2-b67b-454f-91b5-f87d156f0f09.jsonl',
    runner: 'claude-code',
    sessionId: 'fb8acab2-b67b-454f-91b5-f87d156f0f09',
    turns: 1,
    models: ['claude-opus-5-5'],
    cwd: real('claude', 'basic-tools'),
    gitBranch: 'main',
    touched: [
      [
        `write ${real('claude', 'basic-tools')}/src/hello.ts`,
        `edit ${real('claude', 'basic-tools')}/src/hello.ts`,
        `read ${real('claude', 'basic-tools')}/src/hello.ts`,
      ],
    ],
    ops: ['write edit read run'],
  },
  {
    file: 'real-sessions/claude/errors-parallel/projects/-tmp-realsessions-out-claude-errors-parallel-repo/fb0b9600-3cec-431a-a97e-a301600db98f.jsonl',
    runner: 'claude-code',
    sessionId: 'fb0b9600-3cec-431a-a97e-a301600db98f',
    turns: 1,
    models: ['claude-opus-5-5'],
    touched: [[`read ${real('claude', 'errors-parallel')}/config.json`]],
    ops: ['read! run run!'],
  },
  {
    file: 'real-sessions/claude/image/projects/-tmp-realsessions-out-claude-image-repo/6e9e93c4-d365-4f28-8ccb-4290ef2d6df6.jsonl',
    runner: 'claude-code',
    sessionId: '6e9e93c4-d365-4f28-8ccb-4290ef2d6df6',
    turns: 1,
    models: ['claude-opus-5-5'],
    touched: [[`read ${real('claude', 'image')}/assets/pixel.png`]],
    ops: ['read'],
  },
  {
    file: 'real-sessions/claude/multi-turn/projects/-tmp-realsessions-out-claude-multi-turn-repo/4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b.jsonl',
    runner: 'claude-code',
    sessionId: '4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b',
    turns: 2,
    models: ['claude-opus-5-5'],
    touched: [[`write ${real('claude', 'multi-turn')}/TODO.md`], [`edit ${real('claude', 'multi-turn')}/TODO.md`]],
    ops: ['write', 'edit run'],
    firstUserText: 'Write a TODO.md file with two unchecked items: write tests, update docs. [multi-turn:1]',
  },
  {
    file: 'real-sessions/claude/subagent/projects/-tmp-realsessions-out-claude-subagent-repo/195b5b8f-a852-4bc6-b7e0-b737f1ca64d3.jsonl',
    runner: 'claude-code',
    sessionId: '195b5b8f-a852-4bc6-b7e0-b737f1ca64d3',
    turns: 1,
    models: ['claude-opus-5-5'],
    ops: ['agent'],
    isSubagent: false,
    subagentsOfTurn1: ['195b5b8f-a852-4bc6-b7e0-b737f1ca64d3/agent-a364d2f0ac3b26c85'],
  },
  {
    file: 'real-sessions/claude/subagent/projects/-tmp-realsessions-out-claude-subagent-repo/195b5b8f-a852-4bc6-b7e0-b737f1ca64d3/subagents/agent-a364d2f0ac3b26c85.jsonl',
    runner: 'claude-code',
    sessionId: '195b5b8f-a852-4bc6-b7e0-b737f1ca64d3/agent-a364d2f0ac3b26c85',
    turns: 1,
    models: ['claude-opus-5-5'],
    ops: ['run'],
    isSubagent: true,
    parentSessionId: '195b5b8f-a852-4bc6-b7e0-b737f1ca64d3',
    parentTurnKey: 'claude-code:195b5b8f-a852-4bc6-b7e0-b737f1ca64d3#efc86c09-f21e-45a6-bb5d-1dc86a97ccdc',
    firstUserText: 'Count the .ts files under src and reply with just the number. [subagent-task]',
  },
  {
    file: 'real-sessions/codex/basic-tools/sessions/2026/11/29/rollout-2026-11-29T12-05-10-01a22731-e203-7a90-a141-a1a3778f3fdf.jsonl',
    runner: 'codex',
    sessionId: '01a22731-e203-7a90-a141-a1a3778f3fdf',
    turns: 1,
    models: ['gpt-5.5'],
    cwd: real('codex', 'basic-tools'),
    touched: [
      [`write ${real('codex', 'basic-tools')}/src/hello.ts`, `edit ${real('codex', 'basic-tools')}/src/hello.ts`],
    ],
    ops: ['write edit run run'],
  },
  {
    file: 'real-sessions/codex/errors-parallel/sessions/2026/11/29/rollout-2026-11-29T12-05-22-01a22732-134a-7c70-9f09-ad9663903743.jsonl',
    runner: 'codex',
    sessionId: '01a22732-134a-7c70-9f09-ad9663903743',
    turns: 1,
    models: ['gpt-5.5'],
    touched: [[]],
    ops: ['run! run run!'],
  },
  {
    file: 'real-sessions/codex/image/sessions/2026/11/29/rollout-2026-11-29T12-05-32-01a22732-3a77-7e61-b622-6bc464ddd6d1.jsonl',
    runner: 'codex',
    sessionId: '01a22732-3a77-7e61-b622-6bc464ddd6d1',
    turns: 1,
    models: ['gpt-5.5'],
    touched: [[`read ${real('codex', 'image')}/assets/pixel.png`]],
    ops: ['read'],
  },
  {
    file: 'real-sessions/codex/multi-turn/sessions/2026/11/29/rollout-2026-11-29T12-05-43-01a22732-657a-7592-b814-5874c3ab6165.jsonl',
    runner: 'codex',
    sessionId: '01a22732-657a-7592-b814-5874c3ab6165',
    turns: 2,
    models: ['gpt-5.5'],
    touched: [[`write ${real('codex', 'multi-turn')}/TODO.md`], [`edit ${real('codex', 'multi-turn')}/TODO.md`]],
    ops: ['write', 'edit run'],
    firstUserText: 'Write a TODO.md file with two unchecked items: write tests, update docs. [multi-turn:1]',
  },
  {
    file: 'real-sessions/pi/basic-tools/sessions/--tmp-realsessions-out-pi-basic-tools-repo--/2026-11-29T12-05-15-761Z_01a22731-f770-772e-87d6-0c5b4c4356ca.jsonl',
    runner: 'pi',
    sessionId: '01a22731-f770-772e-87d6-0c5b4c4356ca',
    turns: 1,
    models: ['scripted-coder'],
    cwd: real('pi', 'basic-tools'),
    touched: [
      [
        `write ${real('pi', 'basic-tools')}/src/hello.ts`,
        `edit ${real('pi', 'basic-tools')}/src/hello.ts`,
        `read ${real('pi', 'basic-tools')}/src/hello.ts`,
      ],
    ],
    ops: ['write edit read run'],
  },
  {
    file: 'real-sessions/pi/errors-parallel/sessions/--tmp-realsessions-out-pi-errors-parallel-repo--/2026-11-29T12-05-26-882Z_01a22732-22e1-7454-bad0-9121ff75d4e9.jsonl',
    runner: 'pi',
    sessionId: '01a22732-22e1-7454-bad0-9121ff75d4e9',
    turns: 1,
    models: ['scripted-coder'],
    touched: [[`read ${real('pi', 'errors-parallel')}/config.json`]],
    ops: ['read! run run!'],
  },
  {
    file: 'real-sessions/pi/image/sessions/--tmp-realsessions-out-pi-image-repo--/2026-11-29T12-05-36-480Z_01a22732-485f-76a3-a7c5-c5f76e80771e.jsonl',
    runner: 'pi',
    sessionId: '01a22732-485f-76a3-a7c5-c5f76e80771e',
    turns: 1,
    models: ['scripted-coder'],
    touched: [[`read ${real('pi', 'image')}/assets/pixel.png`]],
    ops: ['read'],
  },
  {
    file: 'real-sessions/pi/multi-turn/sessions/--tmp-realsessions-out-pi-multi-turn-repo--/2026-11-29T12-05-48-923Z_01a22732-78f8-7285-85e1-77d70ff3cfd9.jsonl',
    runner: 'pi',
    sessionId: '01a22732-78f8-7285-85e1-77d70ff3cfd9',
    turns: 2,
    models: ['scripted-coder'],
    touched: [[`write ${real('pi', 'multi-turn')}/TODO.md`], [`edit ${real('pi', 'multi-turn')}/TODO.md`]],
    ops: ['write', 'edit run'],
  },
  // Claude Code transcripts collected from public repositories (tests/fixtures/sessions).
  {
    file: 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/short.jsonl',
    runner: 'claude-code',
    sessionId: '55604662-cf2a-4331-851a-ec234028f8ca',
    turns: 1,
    models: ['claude-opus-4-6'],
    touched: [['search /home/marco/projects/spotter']],
    ops: ['run! search!'],
    firstUserText: 'mix phx.server doesnt seem to start',
  },
  {
    file: 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/subagent.jsonl',
    runner: 'claude-code',
    sessionId: '491e126e-1e71-469c-ade2-fcc8af567c74',
    turns: 2,
    models: ['claude-opus-4-6'],
    touched: [['read /home/marco/projects/spotter/mix.exs', 'write /home/marco/projects/spotter/plan.md'], []],
    ops: ['fetch search search search search search read search other agent write other', 'run run run run'],
    subagentsOfTurn1: ['491e126e-1e71-469c-ade2-fcc8af567c74/agent-afb92ff'],
  },
  {
    file: 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/tool_heavy.jsonl',
    runner: 'claude-code',
    sessionId: 'd6e0bada-1959-4eec-a9d2-0bfade768d8f',
    turns: 3,
    models: ['claude-opus-4-6'],
    touched: [[], [], ['read /home/marco/projects/spotter/assets/js/app.js']],
    ops: ['run run', '', 'search search read fetch'],
  },
  {
    file: 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl',
    runner: 'claude-code',
    sessionId: 'ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5',
    turns: 1,
    models: ['claude-sonnet-4-5-20250929'],
    ops: ['search search search search search search fetch fetch fetch fetch fetch fetch'],
    isSubagent: true,
    parentSessionId: 'ae4a77f8-aedd-4bc1-888f-c94edc91af04',
    parentTurnKey: null,
  },
  {
    file: 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-acompact-e1f845.jsonl',
    runner: 'claude-code',
    sessionId: '4d5611e5-241a-462a-8d15-5122611a9569/agent-acompact-e1f845',
    turns: 1,
    models: ['claude-opus-4-6'],
    ops: [''],
    isSubagent: true,
    parentSessionId: '4d5611e5-241a-462a-8d15-5122611a9569',
  },
  {
    file: 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl',
    runner: 'claude-code',
    sessionId: '4d5611e5-241a-462a-8d15-5122611a9569/agent-a2898e3',
    turns: 1,
    models: ['claude-sonnet-4-5-20250929'],
    isSubagent: true,
    cwd: '/home/USER/projects/spotter-worktrees/spotter-dov',
    gitBranch: 'spotter-dov',
  },
  {
    file: 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/fa812bfe-b295-4cca-9c2f-fdf01028cb46/subagents/agent-acompact-70d8e7.jsonl',
    runner: 'claude-code',
    sessionId: 'fa812bfe-b295-4cca-9c2f-fdf01028cb46/agent-acompact-70d8e7',
    turns: 1,
    models: ['claude-opus-4-6'],
    isSubagent: true,
  },
  {
    file: 'sessions/claude-code/jazzyalex-agent-sessions/Resources/Fixtures/stage0/agents/claude/subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
    runner: 'claude-code',
    sessionId: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
    turns: 1,
    models: [],
    ops: ['agent'],
    cwd: '/tmp',
    gitBranch: 'main',
  },
  {
    file: 'sessions/claude-code/jazzyalex-agent-sessions/Resources/Fixtures/stage0/agents/claude/subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.jsonl',
    runner: 'claude-code',
    sessionId: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/agent-a0ad4f44468bdf20d',
    turns: 1,
    models: [],
    ops: ['run'],
    isSubagent: true,
    parentSessionId: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
    // No call id or toolUseId in this layout: linked by time to the parent turn that spawned an agent.
    parentTurnKey: 'claude-code:0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f#pu1',
  },
  {
    file: 'sessions/claude-code/jazzyalex-agent-sessions/Resources/Fixtures/stage0/agents/claude/small.jsonl',
    runner: 'claude-code',
    sessionId: 'ses_stage0_small',
    turns: 6,
    models: ['claude-opus-5', 'claude-opus-4-8', 'claude-sonnet-5', 'claude-fable-5'],
    compactions: 2,
  },
  {
    file: 'sessions/claude-code/jazzyalex-agent-sessions/Resources/Fixtures/stage0/agents/claude/schema_drift.jsonl',
    runner: 'claude-code',
    sessionId: 'ses_stage0_drift',
    turns: 2,
    models: [],
    firstUserText: 'Open README',
  },
  // Codex rollouts from public repositories.
  {
    file: 'sessions/codex/AcidicSoil-codex-session-view/public/demos/example-session-metadata.jsonl',
    runner: 'codex',
    sessionId: '019ab22c-95af-7160-b11d-8f552d0ce721',
    turns: 0,
    models: [],
    cwd: '/home/user/projects/temp/codex-session-view',
    gitBranch: 'main',
  },
  {
    file: 'sessions/codex/jazzyalex-agent-sessions/Resources/Fixtures/stage0/agents/codex/small.jsonl',
    runner: 'codex',
    sessionId: '019fc8be-3658-7ca3-9e29-000000000000',
    turns: 3,
    models: [
      'gpt-5.6-luna',
      'gpt-5.5',
      'codex-auto-review',
      'gpt-5.4',
      'gpt-5.2',
      'gpt-5.2-codex',
      'gpt-5.1',
      'gpt-5.6-sol',
    ],
    // Turn 1 also holds two tool_search_call items and an image_generation_call: newer item kinds are steps.
    ops: ['run run search search search other', '', 'other other'],
    firstUserText: 'List the files',
  },
  ...[
    ['rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl', 5],
    ['rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl', 1],
    ['rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl', 33],
    ['rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl', 1],
    ['rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl', 1],
  ].map(([name, turns]): Expected => ({
    // Redacted Codex Desktop 0.104 rollouts: one turn per task_started (= per event_msg user_message turn).
    file: `sessions/codex/madshn-localpush/src-tauri/tests/fixtures/codex/2026-02-23/raw/sessions/${name as string}`,
    runner: 'codex',
    sessionId: /([0-9a-f-]{36})\.jsonl$/.exec(name as string)![1]!,
    turns: turns as number,
    models: ['gpt-5.3-codex'],
  })),
  // pi sessions.
  {
    file: 'sessions/pi/jazzyalex-agent-sessions/Resources/Fixtures/stage0/agents/pi/small.jsonl',
    runner: 'pi',
    sessionId: '019e19b4-eb48-746a-aa6b-8dfcfa37954b',
    turns: 2,
    models: ['pi-fixture-model'],
    compactions: 2,
    cwd: '/tmp/as-agent-fixture/project',
  },
  {
    file: 'sessions/pi/badlogic-pi-mono/session.jsonl',
    runner: 'pi',
    sessionId: '5fd1e58c-9635-410e-a644-133a96057c90',
    turns: 44,
    models: ['claude-opus-4-5'],
    compactions: 1,
    cwd: '/Users/badlogic/workspaces/pi-mono',
  },
  {
    file: 'sessions/pi/badlogic-pi-mono/packages/coding-agent/test/fixtures/large-session.jsonl',
    runner: 'pi',
    sessionId: 'd703a1a9-1b7b-4fb1-b512-c9738b1fe617',
    turns: 88,
    models: ['claude-sonnet-4-5', 'gpt-5.1-codex'],
  },
];

function touched(session: AtlasSession): string[][] {
  return session.turns.map((turn) =>
    turn.steps.filter((step) => step.files.length > 0).map((step) => `${step.op} ${step.files.join(',')}`),
  );
}

function ops(session: AtlasSession): string[] {
  return session.turns.map((turn) => turn.steps.map((step) => step.op + (step.isError ? '!' : '')).join(' '));
}

describe('adapters on every fixture file', () => {
  it.each(TABLE.map((entry) => [entry.file.split('/').slice(-3).join('/'), entry] as const))(
    '%s',
    async (_name, expected) => {
      const result = await readSessionFile(path.join(FIXTURES, expected.file), { fence });
      expect(result.runner).toBe(expected.runner);
      const session = result.sessions[0]!;
      expect(SessionSchema.safeParse(session).success).toBe(true);
      expect(session.sessionId).toBe(expected.sessionId);
      expect(session.turns).toHaveLength(expected.turns);
      expect([...session.models].sort()).toEqual([...expected.models].sort());
      // Keys are stable ids, unique, numbered from 1.
      expect(new Set(session.turns.map((turn) => turn.key)).size).toBe(session.turns.length);
      session.turns.forEach((turn, index) => {
        expect(turn.number).toBe(index + 1);
        expect(turn.key).toBe(`${expected.runner}:${expected.sessionId}#${turn.openingRecordId}`);
      });
      for (const step of session.turns.flatMap((turn) => turn.steps))
        for (const file of step.files) expect(path.isAbsolute(file)).toBe(true);
      if (expected.cwd !== undefined) expect(session.cwd).toBe(expected.cwd);
      if (expected.gitBranch !== undefined) expect(session.gitBranch).toBe(expected.gitBranch);
      if (expected.touched !== undefined) expect(touched(session)).toEqual(expected.touched);
      if (expected.ops !== undefined) expect(ops(session)).toEqual(expected.ops);
      if (expected.isSubagent !== undefined) expect(session.isSubagent).toBe(expected.isSubagent);
      if (expected.parentSessionId !== undefined) expect(session.parentSessionId).toBe(expected.parentSessionId);
      if (expected.parentTurnKey !== undefined) expect(session.parentTurnKey).toBe(expected.parentTurnKey);
      if (expected.subagentsOfTurn1 !== undefined)
        expect(session.turns[0]!.subagentSessionIds).toEqual(expected.subagentsOfTurn1);
      if (expected.compactions !== undefined) expect(session.compactions).toHaveLength(expected.compactions);
      // Later user text in the same turn (interruptions, tool-use notes) is appended after a blank line.
      if (expected.firstUserText !== undefined)
        expect(session.turns[0]!.userText.split('\n\n')[0]).toBe(expected.firstUserText);
      expect(result.report.invalidJson).toBe(0);
    },
  );

  it('counts the glued line in the pi author session and still reads both records', async () => {
    const result = await readSessionFile(path.join(FIXTURES, 'sessions/pi/badlogic-pi-mono/session.jsonl'), { fence });
    expect(result.report.gluedObjects).toBe(1);
    expect(result.report.lines).toBe(463);
    expect(result.report.records).toBe(464);
    // 115 bash + 43 edit + 30 read + 1 write tool calls, plus one user `!command`.
    expect(result.sessions[0]!.turns.flatMap((turn) => turn.steps)).toHaveLength(190);
  });

  it('reads the large pi v1 session: 391 tool calls, files resolved against the header cwd', async () => {
    const session = (
      await readSessionFile(
        path.join(FIXTURES, 'sessions/pi/badlogic-pi-mono/packages/coding-agent/test/fixtures/large-session.jsonl'),
        { fence },
      )
    ).sessions[0]!;
    expect(session.turns.flatMap((turn) => turn.steps)).toHaveLength(391);
    expect(touched(session)[1]).toContain(
      'read /Users/badlogic/workspaces/pi-mono/packages/coding-agent/docs/theme.md',
    );
    expect(touched(session)[1]).toContain(
      'edit /Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/tui/user-message-selector.ts',
    );
    // `~/…` expands against the home inferred from the session's cwd, not this machine's.
    expect(touched(session).flat()).toContain('read /Users/badlogic/.pi/agent/themes/nord.json');
    // v1 entries have no ids: the opening id is the record timestamp plus a line hash.
    expect(session.turns[1]!.openingRecordId).toMatch(/^2025-11-20T23:33:50\.804Z~[0-9a-f]{12}$/);
  });

  it('counts record types newer than the adapter instead of failing', async () => {
    const result = await readSessionFile(
      path.join(
        FIXTURES,
        'real-sessions/claude/subagent/projects/-tmp-realsessions-out-claude-subagent-repo/195b5b8f-a852-4bc6-b7e0-b737f1ca64d3.jsonl',
      ),
      { fence },
    );
    expect(result.report.unknownRecordTypes).toMatchObject({ 'atis-latch': 4, 'api-request': 2, 'cost-state': 1 });
  });

  it('Codex compaction marks the next turn', async () => {
    const session = (
      await readSessionFile(
        path.join(
          FIXTURES,
          'sessions/codex/madshn-localpush/src-tauri/tests/fixtures/codex/2026-02-23/raw/sessions/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl',
        ),
        { fence },
      )
    ).sessions[0]!;
    expect(session.compactions).toHaveLength(1);
    const after = session.turns.filter((turn) => turn.afterCompaction);
    expect(after).toHaveLength(1);
    expect(after[0]!.number).toBe(session.compactions[0]!.beforeTurnNumber);
  });
});
