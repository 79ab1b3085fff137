import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, ApprovalDecision, ApprovalRequest } from './agent-events.ts';
import { CodexAppServerProtocol, codexServerAnswer } from './codex-app-server-protocol.ts';
import { readTranscript } from './testing/recorded-transcript.ts';

/** Replays what the real `codex app-server` 0.171.0 wrote and checks Weft's answers against what it sent then. */
function replay(name: string) {
  const transcript = readTranscript(name);
  const protocol = new CodexAppServerProtocol(transcript.meta.cwd);
  const events: AgentEvent[] = [];
  const requests: { id: number | string; method: string; request: ApprovalRequest | null }[] = [];
  let finished = false;
  for (const entry of transcript.lines) {
    if (entry.direction !== 'stdout') continue;
    const step = protocol.receive(entry.record);
    events.push(...step.events);
    if (step.serverRequest) requests.push(step.serverRequest);
    if (step.finished) finished = true;
  }
  const stdin = transcript.lines.filter((entry) => entry.direction === 'stdin').map((entry) => entry.record);
  const footprints = events.flatMap((event) => (event.type === 'tool-end' ? [event.footprint] : []));
  const sent = (method: string) =>
    stdin.find((record) => (record as { method?: string }).method === method) as { params: Record<string, unknown> };
  return { transcript, protocol, events, requests, finished, stdin, footprints, sent };
}

function answered(run: ReturnType<typeof replay>, index: number, decision: ApprovalDecision) {
  const request = run.requests[index]!;
  expect(run.stdin).toContainEqual(codexServerAnswer(request.id, request.method, decision));
}

describe('Codex app-server adapter on recorded transcripts', () => {
  it('starts the thread and the turn sandboxed to the working directory, network off, never full access', () => {
    const run = replay('codex-write-inside-deny-outside');
    const { cwd } = run.transcript.meta;
    expect(run.sent('thread/start').params).toMatchObject({ cwd, sandbox: 'workspace-write' });
    expect(run.sent('turn/start').params.sandboxPolicy).toEqual({
      type: 'workspaceWrite',
      writableRoots: [cwd],
      networkAccess: false,
      excludeTmpdirEnvVar: true,
      excludeSlashTmp: true,
    });
    expect(JSON.stringify(run.stdin)).not.toMatch(/dangerFullAccess|danger-full-access/);
  });

  it('a patch inside the folder runs unasked; the one outside asks and, declined, changes nothing', () => {
    const run = replay('codex-write-inside-deny-outside');
    const { cwd, outside } = run.transcript.meta;
    expect(run.requests).toHaveLength(1);
    expect(run.requests[0]!.request).toMatchObject({
      toolName: 'apply_patch',
      leaves: join(outside, 'denied.txt'),
    });
    answered(run, 0, 'deny');
    expect(run.footprints[0]).toMatchObject({
      files: [{ path: join(cwd, 'notes/inside.txt'), op: 'add' }],
      error: null,
    });
    expect(run.footprints[1]!.files).toEqual([]);
    expect(run.footprints[1]!.error).toMatch(/declined/);
    expect(run.protocol.turnStatus()).toEqual({
      status: 'completed',
      text: 'Done: one file written, one refused.',
      error: null,
    });
  });

  it('allow once applies the outside patch', () => {
    const run = replay('codex-allow-once-outside');
    answered(run, 0, 'allow-once');
    expect(run.footprints).toEqual([
      expect.objectContaining({ files: [{ path: join(run.transcript.meta.outside, 'allowed.txt'), op: 'add' }] }),
    ]);
  });

  it('two patches in one reply get a request each, answered separately', () => {
    const run = replay('codex-parallel-approvals');
    expect(run.requests.map((request) => request.request?.leaves)).toEqual([
      join(run.transcript.meta.outside, 'first.txt'),
      join(run.transcript.meta.outside, 'second.txt'),
    ]);
    answered(run, 0, 'allow-once');
    answered(run, 1, 'deny');
    expect(run.footprints.map((footprint) => footprint.files.length)).toEqual([1, 0]);
  });

  it('an interrupt mid-command ends the turn as aborted', () => {
    const run = replay('codex-abort-mid-turn');
    expect(run.sent('turn/interrupt').params).toMatchObject({ threadId: expect.any(String) as string });
    expect(run.finished).toBe(true);
    expect(run.protocol.turnStatus().status).toBe('aborted');
    expect(run.events).toContainEqual(expect.objectContaining({ type: 'tool-start', toolName: 'shell' }));
  });

  it('a server request Weft does not serve is refused, not left hanging', () => {
    const protocol = new CodexAppServerProtocol('/work');
    const step = protocol.receive({ id: 9, method: 'item/tool/requestUserInput', params: {} });
    expect(step.serverRequest).toEqual({ id: 9, method: 'item/tool/requestUserInput', request: null });
    expect(codexServerAnswer(9, 'item/tool/requestUserInput', null)).toMatchObject({ id: 9, error: { code: -32601 } });
  });
});

describe('Codex approval request ids', () => {
  it('the same JSON-RPC id in two turns makes two different cards (scoped by the turn)', () => {
    const protocol = new CodexAppServerProtocol('/work/project');
    const ask = (turnId: string) =>
      protocol.receive({
        id: 0,
        method: 'item/commandExecution/requestApproval',
        params: { threadId: 'thread-1', turnId, itemId: 'call-1', command: 'ls /', cwd: '/work/project' },
      }).serverRequest!;
    const first = ask('turn-1');
    const second = ask('turn-2');
    expect(first.request!.requestId).toBe('turn-1:0');
    expect(second.request!.requestId).toBe('turn-2:0');
    // The answer still goes back under Codex's own JSON-RPC id.
    expect(second.id).toBe(0);
  });
});
