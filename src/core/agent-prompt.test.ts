import { describe, expect, it } from 'vitest';
import { agentCommit, buildAgentPrompt } from './agent-prompt.ts';
import { buildRequest } from './build-request.ts';
import { sha256Hex } from './hashing.ts';
import { TestCanvas } from './test-canvas.ts';

function chain() {
  const canvas = new TestCanvas();
  const parent = canvas.addQuestion('Which files define the parser?');
  canvas.answer(parent, 'src/parse.ts and src/lex.ts');
  const target = canvas.addQuestion('Add a test for the lexer.');
  canvas.wire(parent, target);
  return { canvas, target };
}

describe('the agent prompt (C24)', () => {
  it('is the compiled context as one block, then the question, in compile order', () => {
    const { canvas, target } = chain();
    const prompt = buildAgentPrompt(canvas.compiled(target), { continued: false });
    expect(prompt.question).toBe('Add a test for the lexer.');
    expect(prompt.text.endsWith('\n\nAdd a test for the lexer.')).toBe(true);
    expect(prompt.text.startsWith('<weft-context>')).toBe(true);
    const block = prompt.block!;
    expect(block.indexOf('Which files define the parser?')).toBeLessThan(block.indexOf('src/parse.ts and src/lex.ts'));
    expect(block).not.toContain('Add a test for the lexer.');
  });

  it('a continued session gets the question only', () => {
    const { canvas, target } = chain();
    expect(buildAgentPrompt(canvas.compiled(target), { continued: true })).toEqual({
      block: null,
      question: 'Add a test for the lexer.',
      text: 'Add a test for the lexer.',
    });
  });

  it('the commit hashes the bytes the runtime receives, under the runtime lane, not the chat request hash', () => {
    const { canvas, target } = chain();
    const compiled = canvas.compiled(target);
    const prompt = buildAgentPrompt(compiled, { continued: false });
    const { receivedHash, commit } = agentCommit(target, prompt, { runtime: 'pi', model: 'scripted/coder' });
    expect(receivedHash).toBe(sha256Hex(new TextEncoder().encode(prompt.text)));
    expect(receivedHash).not.toBe(buildRequest(compiled, { model: 'scripted/coder' }).requestHash);
    expect(commit).toEqual({
      op: 'commit',
      objectId: target,
      meta: { requestHash: receivedHash, messageCount: 2, model: 'scripted/coder', lane: 'agent:pi' },
    });
  });
});
