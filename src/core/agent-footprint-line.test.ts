import { describe, expect, it } from 'vitest';
import { WORKSPACE_CHANGES_TOOL, type AgentVersion } from '../../protocol/index.ts';
import { upstreamFingerprint, upstreamSnapshot } from './index.ts';
import { TestCanvas } from './test-canvas.ts';

const agent: AgentVersion = {
  runtime: 'pi',
  sessionId: 's-1',
  sessionFile: '/home/p/.pi/agent/sessions/x.jsonl',
  receivedHash: 'a'.repeat(64),
  footprints: [
    {
      toolCallId: 'c1',
      toolName: 'write',
      args: { path: 'notes/a.txt', content: 'SECRET-CONTENT' },
      files: [{ path: 'notes/a.txt', op: 'write' }],
      exitCode: null,
      error: null,
    },
    {
      toolCallId: 'c2',
      toolName: 'read',
      args: { path: 'b.txt' },
      files: [{ path: 'b.txt', op: 'read' }],
      exitCode: null,
      error: null,
    },
  ],
  approvals: [],
  changedFiles: ['/repo/notes/a.txt'],
};

function agentAnswered(answer: AgentVersion = agent) {
  const canvas = new TestCanvas();
  const parent = canvas.addQuestion('Write the notes.');
  canvas.apply({
    type: 'add-version',
    nodeId: parent,
    version: {
      text: 'Wrote notes/a.txt.',
      question: 'Write the notes.',
      model: 'agent:pi',
      requestHash: agent.receivedHash,
      ...upstreamSnapshot(canvas.graph, parent),
      origin: 'generated',
      status: 'complete',
      branchOf: null,
      agent: answer,
    },
  });
  const child = canvas.addQuestion('What changed?');
  canvas.wire(parent, child);
  return { canvas, parent, child };
}

describe('agent footprints downstream (C24)', () => {
  it('the version keeps its footprints; downstream gets one line naming the changed files, never their contents', () => {
    const { canvas, parent, child } = agentAnswered();
    const node = canvas.graph.nodes.get(parent);
    expect(node?.kind === 'question' && node.versions[0]!.agent?.footprints).toHaveLength(2);
    const texts = canvas
      .compiled(child)
      .messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')));
    expect(texts).toContain(
      '[Agent turn (pi): 2 tool calls changed /repo/notes/a.txt; their contents were left out of this context]',
    );
    expect(texts.join('\n')).not.toContain('SECRET-CONTENT');
  });

  it('files a shell command wrote (found after the turn) are named downstream; they are not counted as a tool call', () => {
    const { canvas, parent, child } = agentAnswered({
      ...agent,
      footprints: [
        ...agent.footprints,
        {
          toolCallId: WORKSPACE_CHANGES_TOOL,
          toolName: WORKSPACE_CHANGES_TOOL,
          args: { compared: 'git status', bounded: false },
          files: [{ path: '/repo/made-by-shell.txt', op: 'created', by: 'shell' }],
          exitCode: null,
          error: null,
        },
      ],
      changedFiles: ['/repo/notes/a.txt', '/repo/made-by-shell.txt'],
    });
    const texts = () =>
      canvas
        .compiled(child)
        .messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')))
        .join('\n');
    expect(texts()).toContain(
      '[Agent turn (pi): 2 tool calls changed /repo/notes/a.txt, /repo/made-by-shell.txt; their contents were left out of this context]',
    );
    canvas.apply({ type: 'edit-node', nodeId: parent, patch: { includeFootprints: true } });
    expect(texts()).toContain('[Agent turn (pi) footprints: 2 tool calls]');
    expect(texts()).toContain('Found changed after the turn (shell): created /repo/made-by-shell.txt');
    expect(texts()).not.toContain(`3. ${WORKSPACE_CHANGES_TOOL}`);
  });

  it('the person can leave the line out like any part', () => {
    const { canvas, parent, child } = agentAnswered();
    canvas.apply({ type: 'exclude-part', nodeId: child, partId: `${parent}:execution` });
    const joined = JSON.stringify(canvas.compiled(child).messages);
    expect(joined).not.toContain('[Agent turn');
  });

  it('footprints in context is off by default; switched on, every footprint enters downstream context in full', () => {
    const { canvas, parent, child } = agentAnswered();
    const node = canvas.graph.nodes.get(parent);
    expect(node?.kind === 'question' && node.includeFootprints).toBeFalsy();
    canvas.apply({ type: 'edit-node', nodeId: parent, patch: { includeFootprints: true } });
    const joined = canvas
      .compiled(child)
      .messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')))
      .join('\n');
    expect(joined).toContain('[Agent turn (pi) footprints: 2 tool calls]');
    expect(joined).toContain('1. write\n   arguments: {"content":"SECRET-CONTENT","path":"notes/a.txt"}');
    expect(joined).toContain('files: read b.txt');
    expect(joined).not.toContain('their contents were left out');
  });

  it('footprint details are part of the downstream fingerprint exactly when the switch is on', () => {
    const other: AgentVersion = {
      ...agent,
      footprints: agent.footprints.map((footprint) => ({ ...footprint, args: { path: 'b.txt', offset: 9 } })),
    };
    const first = agentAnswered(agent);
    const second = agentAnswered(other);
    const fingerprint = (built: ReturnType<typeof agentAnswered>) =>
      upstreamFingerprint(built.canvas.graph, built.child);
    // Off: the same changed files give the same fingerprint, whatever the arguments were.
    expect(fingerprint(first)).toBe(fingerprint(second));
    const offFingerprint = fingerprint(first);
    first.canvas.apply({ type: 'edit-node', nodeId: first.parent, patch: { includeFootprints: true } });
    second.canvas.apply({ type: 'edit-node', nodeId: second.parent, patch: { includeFootprints: true } });
    // On: switching changes the fingerprint, and the arguments now count.
    expect(fingerprint(first)).not.toBe(offFingerprint);
    expect(fingerprint(first)).not.toBe(fingerprint(second));
    first.canvas.apply({ type: 'edit-node', nodeId: first.parent, patch: { includeFootprints: false } });
    expect(fingerprint(first)).toBe(offFingerprint);
  });

  it('the canvas keeps its working directory and guard; a relative folder is refused', () => {
    const canvas = new TestCanvas();
    canvas.apply({ type: 'set-agent-settings', workingDirectory: '/work/repo', guard: 'auto-review' });
    expect(canvas.graph.canvas).toMatchObject({ workingDirectory: '/work/repo', agentGuard: 'auto-review' });
    expect(() => canvas.apply({ type: 'set-agent-settings', workingDirectory: 'repo', guard: 'ask' })).toThrow(
      /absolute/,
    );
  });

  it("the canvas's network switch is off by default, kept when a change leaves it out, and each change is an event", () => {
    const canvas = new TestCanvas();
    canvas.apply({ type: 'set-agent-settings', workingDirectory: '/work/repo', guard: 'ask' });
    expect(canvas.graph.canvas.agentNetwork).toBe(false);
    canvas.apply({ type: 'set-agent-settings', workingDirectory: '/work/repo', guard: 'ask', network: true });
    expect(canvas.graph.canvas.agentNetwork).toBe(true);
    canvas.apply({ type: 'set-agent-settings', workingDirectory: '/work/repo', guard: 'allow' });
    expect(canvas.graph.canvas.agentNetwork).toBe(true);
    const settings = canvas.graph.events.filter((event) => event.op === 'agent-settings');
    expect(settings.map((event) => event.meta.network)).toEqual([false, true, true]);
  });
});
