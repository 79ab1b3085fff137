import { describe, expect, it } from 'vitest';
import { assembleRequest } from './build-request.ts';
import { REQUEST_TOKEN_PARTS, requestTokens } from './request-tokens.ts';
import { TestCanvas } from './test-canvas.ts';
import { estimateTokensByLength } from './tokens.ts';

/** A question with a material, a quoted reference, a solid parent, a [Memory] block, recall and a tool. */
function fullRequest() {
  const canvas = new TestCanvas();
  const material = canvas.addMaterial('Rayleigh', 'Scattering goes as the inverse fourth power of wavelength.');
  const quoted = canvas.addQuestion('What is Mie scattering?');
  canvas.answer(quoted, 'Scattering by particles near the wavelength in size, nearly colour-blind.');
  const parent = canvas.addQuestion('Why is the sky blue?');
  canvas.answer(parent, 'Short wavelengths scatter most.');
  const target = canvas.addQuestion('So why are clouds white?');
  canvas.wire(material, target);
  canvas.wire(quoted, target, 'full');
  canvas.wire(parent, target);
  const compiled = canvas.compiled(target);
  const assembled = assembleRequest(compiled, {
    model: 'm',
    memoryBlock: '[Memory]\nPrefers SI units and short answers.',
    recallBlock: '[Recall]\nA past turn: clouds are white because droplets scatter all colours alike.',
    chatTools: ['scholarly-search'],
  });
  return { compiled, assembled };
}

describe('requestTokens', () => {
  it('gives every sent part a count, and the parts add up to the total', () => {
    const { compiled, assembled } = fullRequest();
    const tokens = requestTokens(assembled, compiled, estimateTokensByLength);
    for (const part of ['materials', 'references', 'chain', 'memory', 'recall', 'question', 'tools'] as const)
      expect(tokens[part], part).toBeGreaterThan(0);
    const sum = REQUEST_TOKEN_PARTS.reduce((total, part) => total + tokens[part], 0);
    expect(tokens.total).toBe(sum);
  });

  it('counts the whole request: every text sent and the tool declarations, nothing twice', () => {
    const { compiled, assembled } = fullRequest();
    const counted: string[] = [];
    const tokens = requestTokens(assembled, compiled, (text) => {
      counted.push(text);
      return text.length;
    });
    const texts = assembled.request.messages.flatMap((message) =>
      message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
    );
    expect(counted).toEqual([...texts, JSON.stringify(assembled.request.toolDeclarations)]);
    expect(tokens.total).toBe(counted.reduce((total, text) => total + text.length, 0));
    expect(tokens.memory).toBe('[Memory]\nPrefers SI units and short answers.'.length);
    expect(tokens.question).toBe('So why are clouds white?'.length);
  });

  it('counts no tools and no late blocks when none are sent', () => {
    const canvas = new TestCanvas();
    const target = canvas.addQuestion('Alone?');
    const compiled = canvas.compiled(target);
    const tokens = requestTokens(assembleRequest(compiled, { model: 'm' }), compiled, estimateTokensByLength);
    expect({ ...tokens, question: 0, total: 0 }).toEqual(
      Object.fromEntries([...REQUEST_TOKEN_PARTS, 'total'].map((part) => [part, 0])),
    );
    expect(tokens.total).toBe(tokens.question);
  });
});
