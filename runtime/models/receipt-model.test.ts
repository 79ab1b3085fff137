import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/index.ts';
import { turnOpening } from '../../src/core/topics/index.ts';
import { formatReceipt, ReceiptModel } from './receipt-model.ts';

const hash = 'a'.repeat(64);

describe('ReceiptModel', () => {
  it('is a v3 language model that answers with a receipt through generateText', async () => {
    const model = new ReceiptModel({ requestHash: hash });
    expect(model.specificationVersion).toBe('v3');
    const result = await generateText({
      model,
      system: 'Be brief.\nSecond line of the role.',
      messages: [
        { role: 'user', content: 'First question?' },
        { role: 'assistant', content: 'First answer.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Now this one, with a picture.' },
            { type: 'image', image: new Uint8Array([1, 2, 3]), mediaType: 'image/png' },
          ],
        },
      ],
    });
    expect(result.text).toContain('Offline receipt: no model was called');
    expect(result.text).toContain('Messages: 4');
    expect(result.text).toContain(`Request hash: ${hash}`);
    expect(result.text).toContain(
      '1. system: "Be brief."\n2. user: "First question?"\n3. assistant: "First answer."\n4. user: "Now this one, with a picture." (+1 image)',
    );
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streams the same receipt in several chunks', async () => {
    const model = new ReceiptModel({ requestHash: hash, chunkSize: 10 });
    const result = streamText({ model, prompt: 'Hello there' });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.join('')).toBe(
      formatReceipt([{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }], hash),
    );
  });

  it('estimates tokens at four characters each and cuts long openings', () => {
    const long = 'x'.repeat(200);
    const text = formatReceipt([{ role: 'user', content: [{ type: 'text', text: long }] }], null);
    expect(text).toContain('Token estimate: ~50');
    expect(text).toContain('Request hash: not provided');
    expect(text).toContain(`"${'x'.repeat(79)}…"`);
  });

  it('its answer leaves as it is in a topic label plan’s opening: its request hash is not taken for a key', () => {
    const requestHash = sha256Hex('a request');
    const receipt = formatReceipt([{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }], requestHash);
    const opening = turnOpening('Hello there', receipt, 10_000);
    expect(opening).toContain(`Request hash: ${requestHash}`);
    expect(opening).not.toContain('[redacted');
  });
});
