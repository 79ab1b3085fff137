import { describe, expect, it } from 'vitest';
import type { AgentVersion } from '../../protocol/index.ts';
import { upstreamSnapshot } from './index.ts';
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

function agentAnswered() {
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
      agent,
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

  it('the person can leave the line out like any part', () => {
    const { canvas, parent, child } = agentAnswered();
    canvas.apply({ type: 'exclude-part', nodeId: child, partId: `${parent}:execution` });
    const joined = JSON.stringify(canvas.compiled(child).messages);
    expect(joined).not.toContain('[Agent turn');
  });

  it('the canvas keeps its working directory and guard; a relative folder is refused', () => {
    const canvas = new TestCanvas();
    canvas.apply({ type: 'set-agent-settings', workingDirectory: '/work/repo', guard: 'auto-review' });
    expect(canvas.graph.canvas).toMatchObject({ workingDirectory: '/work/repo', agentGuard: 'auto-review' });
    expect(() => canvas.apply({ type: 'set-agent-settings', workingDirectory: 'repo', guard: 'ask' })).toThrow(
      /absolute/,
    );
  });
});
