import { describe, expect, it } from 'vitest';
import type { Runner } from '../../protocol/atlas-session.ts';
import { detectRunner } from './detect-runner.ts';
import { findReferences } from './references.ts';
import { createSessionAccumulator } from './session-accumulator.ts';
import type { AtlasSession } from './session-builder.ts';
import { linkSessions } from './subagent-links.ts';

/** Layouts and record kinds the fixture files do not cover, written from the format notes. */
function read(runner: Runner, sourcePath: string, records: object[]): AtlasSession[] {
  const accumulator = createSessionAccumulator(runner, sourcePath);
  for (const record of records) accumulator.push(Buffer.from(JSON.stringify(record)));
  return accumulator.sessions();
}

const T = (second: number): string => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

describe('detectRunner', () => {
  it('recognises each runner by content', () => {
    expect(detectRunner(['{"timestamp":"x","type":"session_meta","payload":{"id":"t"}}'])).toBe('codex');
    expect(detectRunner(['{"id":"t","timestamp":"x","instructions":"i"}'])).toBe('codex');
    expect(detectRunner(['{"type":"session","version":3,"id":"p","cwd":"/w"}'])).toBe('pi');
    expect(detectRunner(['{"type":"session","id":"p","timestamp":"x","cwd":"/w","provider":"anthropic"}'])).toBe('pi');
    expect(detectRunner(['', 'garbage', '{"type":"summary","summary":"s","leafUuid":"u"}'])).toBe('claude-code');
    expect(detectRunner(['{"type":"queue-operation","operation":"enqueue","sessionId":"s"}'])).toBe('claude-code');
    expect(detectRunner(['{"type":"message","message":{"role":"user"}}{"type":"x"}'])).toBe('pi');
    expect(detectRunner(['{"hello":1}', '[1,2]'])).toBeNull();
  });
});

describe('references', () => {
  it('finds URLs, arXiv ids and DOIs', () => {
    const found = findReferences(
      'See https://arxiv.org/abs/2310.06825v2, arXiv:1706.03762 and doi 10.1145/3292500.3330701. Also (https://example.com/a_(b)).',
    );
    expect(found.arxivIds.sort()).toEqual(['1706.03762', '2310.06825']);
    expect(found.dois).toEqual(['10.1145/3292500.3330701']);
    expect(found.urls).toContain('https://arxiv.org/abs/2310.06825v2');
    expect(found.urls).toContain('https://example.com/a_(b)');
  });
});

describe('Claude Code', () => {
  it('compaction boundary, compact summary, inline sidechain and references in tool input', () => {
    const [main, side] = read('claude-code', '/p/s1.jsonl', [
      {
        type: 'user',
        uuid: 'u1',
        sessionId: 's1',
        timestamp: T(1),
        cwd: '/w',
        gitBranch: 'dev',
        message: { role: 'user', content: 'read the paper' },
      },
      {
        type: 'assistant',
        uuid: 'a1',
        sessionId: 's1',
        timestamp: T(2),
        message: {
          role: 'assistant',
          model: 'm1',
          content: [
            { type: 'tool_use', id: 't1', name: 'WebFetch', input: { url: 'https://arxiv.org/abs/2401.00001' } },
          ],
        },
      },
      {
        type: 'user',
        uuid: 'r1',
        sessionId: 's1',
        timestamp: T(3),
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'DOI 10.1000/xyz123' }] },
          ],
        },
      },
      {
        type: 'user',
        uuid: 'x1',
        parentUuid: null,
        isSidechain: true,
        sessionId: 's1',
        timestamp: T(4),
        message: { role: 'user', content: 'side task' },
      },
      {
        type: 'assistant',
        uuid: 'x2',
        parentUuid: 'x1',
        isSidechain: true,
        sessionId: 's1',
        timestamp: T(5),
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: 'src/a.ts' } }],
        },
      },
      { type: 'system', subtype: 'compact_boundary', uuid: 'c1', sessionId: 's1', timestamp: T(6) },
      {
        type: 'user',
        uuid: 'cs',
        isCompactSummary: true,
        sessionId: 's1',
        timestamp: T(7),
        message: { role: 'user', content: 'This session is being continued…' },
      },
      {
        type: 'user',
        uuid: 'u2',
        sessionId: 's1',
        timestamp: T(8),
        cwd: '/w/sub',
        message: { role: 'user', content: [{ type: 'image', source: {} }] },
      },
      {
        type: 'assistant',
        uuid: 'a2',
        sessionId: 's1',
        timestamp: T(9),
        message: {
          role: 'assistant',
          model: 'm2',
          content: [{ type: 'tool_use', id: 't3', name: 'Write', input: { file_path: 'out.txt' } }],
        },
      },
    ]);
    expect(main!.turns.map((turn) => turn.key)).toEqual(['claude-code:s1#u1', 'claude-code:s1#u2']);
    expect(main!.turns[0]!.arxivIds).toEqual(['2401.00001']);
    expect(main!.turns[0]!.steps[0]).toMatchObject({ op: 'fetch', resultSummary: 'DOI 10.1000/xyz123' });
    expect(main!.compactions).toEqual([
      { beforeTurnNumber: 2, at: Date.parse(T(6)), summary: 'This session is being continued…' },
    ]);
    expect(main!.turns[1]).toMatchObject({ afterCompaction: true, userText: '[1 image]', model: 'm2' });
    // Relative paths resolve against the cwd in force at the time.
    expect(main!.turns[1]!.steps[0]!.files).toEqual(['/w/sub/out.txt']);
    expect(main!.gitBranch).toBe('dev');
    expect(side).toMatchObject({ sessionId: 's1/sidechain-x1', isSubagent: true, parentSessionId: 's1' });
    expect(side!.turns[0]!.steps[0]!.files).toEqual(['/w/src/a.ts']);
  });

  it('inline sidechain (old builds) links to the Task call whose prompt it received', () => {
    const [main, side] = read('claude-code', '/p/s2.jsonl', [
      {
        type: 'user',
        uuid: 'u1',
        sessionId: 's2',
        timestamp: T(1),
        cwd: '/w',
        message: { role: 'user', content: 'plan it' },
      },
      {
        type: 'user',
        uuid: 'u2',
        sessionId: 's2',
        timestamp: T(2),
        message: { role: 'user', content: 'now delegate' },
      },
      {
        type: 'assistant',
        uuid: 'a2',
        sessionId: 's2',
        timestamp: T(3),
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'task-1',
              name: 'Task',
              input: {
                description: 'look around',
                prompt: 'List   the\nfiles under src and report',
                subagent_type: 'Explore',
              },
            },
          ],
        },
      },
      {
        type: 'user',
        uuid: 'x1',
        parentUuid: null,
        isSidechain: true,
        sessionId: 's2',
        timestamp: T(4),
        message: { role: 'user', content: 'List the files under src and report' },
      },
    ]);
    expect(main!.turns[1]!.steps[0]!.inputSummary).toBe(
      'Explore: look around — prompt: List the files under src and report',
    );
    expect(side).toMatchObject({ sessionId: 's2/sidechain-x1', parentTurnKey: 'claude-code:s2#u2' });
    expect(main!.turns[1]!.subagentSessionIds).toEqual(['s2/sidechain-x1']);
    expect(main!.turns[0]!.subagentSessionIds).toEqual([]);
  });

  it('older flat layout: agent-<id>.jsonl beside the parent carries the parent session id', () => {
    const [child] = read('claude-code', '/p/agent-abc1234.jsonl', [
      {
        type: 'user',
        uuid: 'c1',
        parentUuid: null,
        isSidechain: true,
        agentId: 'abc1234',
        sessionId: 'parent',
        timestamp: T(1),
        message: { role: 'user', content: 'sub task' },
      },
    ]);
    expect(child).toMatchObject({
      sessionId: 'parent/agent-abc1234',
      isSubagent: true,
      parentSessionId: 'parent',
      agentId: 'abc1234',
    });
  });
});

describe('Codex', () => {
  it('legacy rollout: bare header and bare items, derived turn ids', () => {
    const [session] = read('codex', '/c/rollout-2025-06-01T10-00-00-legacy.jsonl', [
      { id: 'legacy-1', timestamp: T(0), instructions: '', git: { branch: 'main' } },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }] },
      {
        type: 'function_call',
        name: 'shell',
        call_id: 'c1',
        arguments: JSON.stringify({
          command: [
            'apply_patch',
            '*** Begin Patch\n*** Delete File: old.txt\n*** Add File: new.txt\n+x\n*** End Patch',
          ],
          workdir: '/repo',
        }),
      },
      {
        type: 'function_call_output',
        call_id: 'c1',
        output: JSON.stringify({ output: 'failed', metadata: { exit_code: 1 } }),
      },
    ]);
    expect(session!.sessionId).toBe('legacy-1');
    expect(session!.turns).toHaveLength(1);
    expect(session!.turns[0]!.openingRecordId).toMatch(/^notime~[0-9a-f]{12}$/);
    expect(session!.turns[0]!.steps.map((step) => `${step.op} ${step.files.join()} ${step.isError}`)).toEqual([
      'delete /repo/old.txt true',
      'write /repo/new.txt true',
    ]);
  });

  it('subagent thread links to the parent turn; fork keeps its parent', () => {
    const parent = read('codex', '/c/rollout-parent.jsonl', [
      { timestamp: T(0), type: 'session_meta', payload: { id: 'P', cwd: '/r' } },
      { timestamp: T(1), type: 'event_msg', payload: { type: 'task_started', turn_id: 'turn-1' } },
      { timestamp: T(1), type: 'event_msg', payload: { type: 'user_message', message: 'first' } },
      { timestamp: T(2), type: 'event_msg', payload: { type: 'task_complete', turn_id: 'turn-1' } },
      { timestamp: T(3), type: 'event_msg', payload: { type: 'task_started', turn_id: 'turn-2' } },
      { timestamp: T(3), type: 'event_msg', payload: { type: 'user_message', message: 'spawn a helper' } },
    ]);
    const child = read('codex', '/c/rollout-child.jsonl', [
      {
        timestamp: T(4),
        type: 'session_meta',
        payload: { id: 'C', cwd: '/r', source: { subagent: { thread_spawn: { parent_thread_id: 'P', depth: 1 } } } },
      },
      { timestamp: T(4), type: 'session_meta', payload: { id: 'P', cwd: '/elsewhere' } },
    ]);
    const linked = linkSessions([...parent, ...child]);
    expect(linked[1]).toMatchObject({
      sessionId: 'C',
      isSubagent: true,
      parentSessionId: 'P',
      parentTurnKey: 'codex:P#turn-2',
      cwd: '/r',
    });
    expect(linked[0]!.turns[1]!.subagentSessionIds).toEqual(['C']);
    expect(parent[0]!.turns[1]!.subagentSessionIds).toEqual([]);
  });
});

describe('pi', () => {
  it('branches: a turn records the turn it follows in the parentId tree', () => {
    const [session] = read('pi', '/s/2026-01-01T00-00-00-000Z_0000.jsonl', [
      { type: 'session', version: 3, id: 'S', timestamp: T(0), cwd: '/w' },
      { type: 'message', id: 'u1', parentId: null, timestamp: T(1), message: { role: 'user', content: 'one' } },
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: T(2),
        message: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }] },
      },
      { type: 'message', id: 'u2', parentId: 'a1', timestamp: T(3), message: { role: 'user', content: 'two' } },
      {
        type: 'message',
        id: 'u3',
        parentId: 'a1',
        timestamp: T(4),
        message: { role: 'user', content: 'two, differently' },
      },
      {
        type: 'message',
        id: 'b1',
        parentId: 'u3',
        timestamp: T(5),
        message: { role: 'bashExecution', command: 'ls', output: 'x', exitCode: 2 },
      },
      { type: 'session_info', id: 'i1', parentId: 'b1', timestamp: T(6), name: 'Named' },
    ]);
    expect(session!.title).toBe('Named');
    expect(session!.turns.map((turn) => turn.followsTurnKey)).toEqual([null, 'pi:S#u1', 'pi:S#u1']);
    expect(session!.turns[2]!.steps[0]).toMatchObject({ op: 'run', isError: true, resultSummary: 'x' });
  });
});
