import { describe, expect, it } from 'vitest';
import { assembleRequest, buildRequest, hashCanonical } from '../../core/index.ts';
import { TestCanvas } from '../../core/test-canvas.ts';
import { hashCanonicalNative } from './hash-canonical-native.ts';

describe('hashCanonicalNative (the preview hash by WebCrypto)', () => {
  it('is the hash buildRequest sends, for the very request assembleRequest gives the preview', async () => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('Why is the sky “blue”? \\ "quoted" \u0007 tab\there');
    canvas.answer(parent, `Rayleigh scattering 🌈 散射.\n${'Long answer line. '.repeat(2_000)}`);
    const target = canvas.addQuestion('And at sunset?\nTwo lines.');
    canvas.wire(parent, target);
    const options = { model: 'm', tools: { webSearch: false }, memoryBlock: '[Memory] likes π', recallBlock: 'é' };
    const sent = buildRequest(canvas.compiled(target), options);
    const shown = assembleRequest(canvas.compiled(target), options);
    expect(shown.request).toEqual(sent.request);
    expect(shown.messageSources).toEqual(sent.messageSources);
    expect(await hashCanonicalNative(shown.request)).toBe(sent.requestHash);
  });

  it('agrees with the JavaScript hash on escapes, astral text, numbers and text longer than a hasher piece', async () => {
    const values = [
      { a: 1, b: [true, null, -0.5, 1e21], c: 'x' },
      { text: '\u0000\u001f"\\\n\r\t\u2028 🧵 漢字 é', nested: { z: 1, a: [{ y: 'é' }] } },
      { long: 'ab"c\n'.repeat(10_000), after: '😀'.repeat(9_000) },
      [],
      '',
    ];
    for (const value of values) expect(await hashCanonicalNative(value)).toBe(hashCanonical(value));
  });

  it('refuses what has no canonical form, as hashCanonical does', async () => {
    await expect(hashCanonicalNative({ text: 'lone \ud800 surrogate' })).rejects.toThrow(/surrogate/i);
    expect(() => hashCanonical({ text: 'lone \ud800 surrogate' })).toThrow(/surrogate/i);
  });
});
