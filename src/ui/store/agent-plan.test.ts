import { describe, expect, it } from 'vitest';
import type { AgentVersion } from '../../../protocol/index.ts';
import { TestCanvas, upstreamSnapshot } from '../../core/index.ts';
import { agentModel, agentPlan } from './agent-plan.ts';

function agentVersion(runtime: 'pi' | 'codex'): AgentVersion {
  return {
    runtime,
    sessionId: 'thread-1',
    sessionFile: '/sessions/pi-1.jsonl',
    receivedHash: 'b'.repeat(64),
    footprints: [],
    approvals: [],
    changedFiles: [],
  };
}

function answerAsAgent(canvas: TestCanvas, nodeId: string, runtime: 'pi' | 'codex'): void {
  canvas.apply({
    type: 'add-version',
    nodeId,
    version: {
      text: 'done',
      question: 'q',
      model: `agent:${runtime}`,
      requestHash: 'b'.repeat(64),
      ...upstreamSnapshot(canvas.graph, nodeId),
      origin: 'generated',
      status: 'complete',
      branchOf: null,
      agent: agentVersion(runtime),
    },
  });
}

describe('agentPlan (C24 follow-ups)', () => {
  it('reads the runtime and its own model from the node model', () => {
    expect(agentModel('agent:pi')).toEqual({ runtime: 'pi', model: undefined });
    expect(agentModel('agent:codex/gpt-5.5')).toEqual({ runtime: 'codex', model: 'gpt-5.5' });
    expect(agentModel('openai/gpt-4o')).toBeNull();
  });

  it('a fresh node hands the compiled context as one block', () => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('Where are the docs?');
    canvas.answer(parent, 'In docs/.');
    const child = canvas.addQuestion('Summarise them.');
    canvas.wire(parent, child);
    canvas.apply({ type: 'edit-node', nodeId: child, patch: { model: 'agent:pi' } });
    const plan = agentPlan(canvas.graph, new Set(), child)!;
    expect(plan.session).toBeUndefined();
    expect(plan.prompt.block).toContain('In docs/.');
  });

  it("a new session's block names the materials copied into the working directory; the run sends those files", () => {
    const canvas = new TestCanvas();
    const spec = canvas.addMaterial('Lexer spec', 'Tokens are separated by spaces.');
    const node = canvas.addQuestion('Add a lexer test.');
    canvas.wire(spec, node);
    canvas.apply({ type: 'edit-node', nodeId: node, patch: { model: 'agent:pi' } });
    // Without a working directory there is nowhere to copy them, so the block names no files.
    expect(agentPlan(canvas.graph, new Set(), node)!.prompt.block).not.toContain('.weft/materials');
    canvas.apply({ type: 'set-agent-settings', workingDirectory: '/work/repo', guard: 'ask' });
    const plan = agentPlan(canvas.graph, new Set(), node)!;
    expect(plan.materials.map((file) => file.fileName)).toEqual(['1-lexer-spec.md']);
    expect(plan.materials[0]!.text).toContain('Source: pasted text');
    expect(plan.prompt.block).toContain(`- /work/repo/.weft/materials/${node}/1-lexer-spec.md (Lexer spec)`);
    answerAsAgent(canvas, node, 'pi');
    expect(agentPlan(canvas.graph, new Set(), node)!.materials).toEqual([]);
  });

  it('asking again continues the node session with the question only (Pi by file, Codex by thread)', () => {
    for (const runtime of ['pi', 'codex'] as const) {
      const canvas = new TestCanvas();
      const node = canvas.addQuestion('Fix the test.');
      canvas.apply({ type: 'edit-node', nodeId: node, patch: { model: `agent:${runtime}` } });
      answerAsAgent(canvas, node, runtime);
      const plan = agentPlan(canvas.graph, new Set(), node)!;
      expect(plan.session).toEqual({ continue: runtime === 'pi' ? '/sessions/pi-1.jsonl' : 'thread-1' });
      expect(plan.prompt).toEqual({ block: null, question: 'Fix the test.', text: 'Fix the test.' });
    }
  });

  it('a child wired from an agent node forks its session; another runtime starts fresh', () => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('Fix the test.');
    answerAsAgent(canvas, parent, 'codex');
    const child = canvas.addQuestion('Now the docs.');
    canvas.wire(parent, child);
    canvas.apply({ type: 'edit-node', nodeId: child, patch: { model: 'agent:codex' } });
    const fork = agentPlan(canvas.graph, new Set(), child)!;
    expect(fork.session).toEqual({ fork: 'thread-1' });
    // The forked session already holds the parent's turn: the runtime gets the new ask only, and the commit hashes it.
    expect(fork.prompt).toEqual({ block: null, question: 'Now the docs.', text: 'Now the docs.' });
    canvas.apply({ type: 'edit-node', nodeId: child, patch: { model: 'agent:pi' } });
    expect(agentPlan(canvas.graph, new Set(), child)!.session).toBeUndefined();
  });

  it('a child with more inputs than the agent parent starts a new session with the whole compiled block', () => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('Fix the test.');
    answerAsAgent(canvas, parent, 'codex');
    const other = canvas.addQuestion('Which style guide?');
    canvas.answer(other, 'The house style.');
    const child = canvas.addQuestion('Now the docs.');
    canvas.wire(parent, child);
    canvas.wire(other, child);
    canvas.apply({ type: 'edit-node', nodeId: child, patch: { model: 'agent:codex' } });
    const plan = agentPlan(canvas.graph, new Set(), child)!;
    expect(plan.session).toBeUndefined();
    expect(plan.prompt.block).toContain('The house style.');
    expect(plan.prompt.block).toContain('done');
  });
});
