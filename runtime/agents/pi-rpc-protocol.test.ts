import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, ApprovalRequest, Footprint } from './agent-events.ts';
import { PiRpcProtocol, piDialogAnswer } from './pi-rpc-protocol.ts';
import { readTranscript } from './testing/recorded-transcript.ts';

/** Replays what the real Pi 0.73.1 wrote; checks the events and that Weft's answers are the bytes it sent then. */
function replay(name: string) {
  const transcript = readTranscript(name);
  const protocol = new PiRpcProtocol();
  const events: AgentEvent[] = [];
  const dialogs: { id: string; request: ApprovalRequest | null }[] = [];
  let finished = false;
  for (const entry of transcript.lines) {
    if (entry.direction !== 'stdout') continue;
    const step = protocol.receive(entry.record);
    events.push(...step.events);
    if (step.dialog) dialogs.push(step.dialog);
    if (step.finished) finished = true;
  }
  const stdin = transcript.lines.filter((entry) => entry.direction === 'stdin').map((entry) => entry.record);
  const footprints = events.flatMap((event) => (event.type === 'tool-end' ? [event.footprint] : []));
  return { transcript, protocol, events, dialogs, finished, stdin, footprints };
}

const byName = (footprints: Footprint[], path: string) =>
  footprints.find((footprint) => (footprint.args as { path?: string }).path === path);

describe('Pi RPC adapter on recorded transcripts', () => {
  it('a write inside the folder is a footprint; the write outside asks, is denied and touches nothing', () => {
    const run = replay('pi-write-inside-deny-outside');
    const outside = join(run.transcript.meta.outside, 'denied.txt');
    expect(run.dialogs).toHaveLength(1);
    expect(run.dialogs[0]!.request).toMatchObject({ toolName: 'write', leaves: outside, reason: 'path-leaves-folder' });
    expect(run.stdin).toContainEqual(piDialogAnswer(run.dialogs[0]!.id, 'deny'));
    expect(byName(run.footprints, 'notes/inside.txt')).toMatchObject({
      files: [{ path: 'notes/inside.txt', op: 'write' }],
      error: null,
    });
    const denied = byName(run.footprints, outside)!;
    expect(denied.files).toEqual([]);
    expect(denied.error).toContain('denied');
    expect(run.finished).toBe(true);
    expect(run.protocol.turnStatus()).toEqual({
      status: 'completed',
      text: 'Done: one file written, one refused.',
      error: null,
    });
  });

  it('allow once lets the outside write run and records the file', () => {
    const run = replay('pi-allow-once-outside');
    const outside = join(run.transcript.meta.outside, 'allowed.txt');
    expect(run.stdin).toContainEqual(piDialogAnswer(run.dialogs[0]!.id, 'allow-once'));
    expect(run.footprints).toEqual([
      expect.objectContaining({ toolName: 'write', files: [{ path: outside, op: 'write' }], error: null }),
    ]);
  });

  it('two tool calls in one message get a dialog each, with their own ids and answers', () => {
    const run = replay('pi-parallel-approvals');
    expect(run.dialogs.map((dialog) => dialog.request?.leaves)).toEqual([
      join(run.transcript.meta.outside, 'first.txt'),
      join(run.transcript.meta.outside, 'second.txt'),
    ]);
    expect(new Set(run.dialogs.map((dialog) => dialog.id)).size).toBe(2);
    expect(run.footprints.map((footprint) => footprint.files.length).sort()).toEqual([0, 1]);
  });

  it('an abort mid-turn ends the turn as aborted', () => {
    const run = replay('pi-abort-mid-turn');
    expect(run.stdin).toContainEqual({ type: 'abort' });
    expect(run.finished).toBe(true);
    expect(run.protocol.turnStatus().status).toBe('aborted');
  });

  it('streams the assistant text as deltas and reports the session from get_state', () => {
    const run = replay('pi-allow-once-outside');
    const said = run.events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(said).toContain('Written.');
    const state = run.transcript.lines.find((entry) => (entry.record as { command?: string }).command === 'get_state');
    expect((state?.record as { data: { sessionFile: string } }).data.sessionFile).toMatch(/\.jsonl$/);
  });

  it('a dialog that is not the guard is cancelled, never answered yes', () => {
    const protocol = new PiRpcProtocol();
    const step = protocol.receive({ type: 'extension_ui_request', id: 'x1', method: 'confirm', title: 'Delete?' });
    expect(step.dialog).toEqual({ id: 'x1', request: null });
    expect(piDialogAnswer('x1', null)).toEqual({ type: 'extension_ui_response', id: 'x1', cancelled: true });
  });

  it('a footprint names the file Pi opened: `@` dropped and `~` expanded, as Pi 0.73 reads a tool path', () => {
    const protocol = new PiRpcProtocol();
    const paths = ['@/outside/x', '~/x'];
    const files = paths.flatMap((path, index) => {
      const toolCallId = `t${index}`;
      protocol.receive({ type: 'tool_execution_start', toolCallId, toolName: 'write', args: { path } });
      const step = protocol.receive({
        type: 'tool_execution_end',
        toolCallId,
        toolName: 'write',
        result: { content: [{ type: 'text', text: 'ok' }] },
        isError: false,
      });
      return step.events.flatMap((event) => (event.type === 'tool-end' ? event.footprint.files : []));
    });
    expect(files).toEqual([
      { path: '/outside/x', op: 'write' },
      { path: join(homedir(), 'x'), op: 'write' },
    ]);
  });
});
