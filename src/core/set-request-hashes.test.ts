import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../protocol/index.ts';
import { contextHash, requestContext } from './context-hash.ts';
import { hashCanonical } from './hashing.ts';
import { setRequestHashes } from './set-request-hashes.ts';

const text = fc.string({ unit: 'binary', maxLength: 40 });
const message = fc.record({
  role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
  content: fc.array(fc.record({ type: fc.constant('text' as const), text }), { minLength: 1, maxLength: 3 }),
});
const context = fc.record(
  {
    messages: fc.array(message, { minLength: 1, maxLength: 4 }),
    tools: fc.dictionary(fc.string({ maxLength: 8 }), fc.boolean(), { maxKeys: 3 }),
    toolDeclarations: fc.array(
      fc.record({
        name: fc.string({ minLength: 1, maxLength: 8 }),
        description: text,
        inputSchema: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
      }),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ['messages', 'tools'] },
);
const variant = fc.record(
  {
    model: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
  },
  { requiredKeys: ['model'] },
);

describe('setRequestHashes (issue 31)', () => {
  it('gives exactly hashCanonical of each whole request and contextHash of the context, whatever the bytes', () => {
    fc.assert(
      fc.property(context, fc.array(variant, { minLength: 1, maxLength: 5 }), (shared, variants) => {
        const hashes = setRequestHashes(shared, variants);
        const requests = variants.map((each) => ({ ...shared, ...each }));
        expect(hashes.requestHashes).toEqual(requests.map((request) => hashCanonical(request)));
        expect(hashes.contextHash).toBe(contextHash(requests[0]!));
      }),
      { numRuns: 300 },
    );
  });

  it('tells models and temperatures apart and gives one hash to the samples of one model', () => {
    const request: CanonicalRequest = {
      model: 'a/one',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'why?' }] }],
      tools: { webSearch: false },
    };
    const { requestHashes } = setRequestHashes(requestContext(request), [
      { model: 'a/one', temperature: 0.2 },
      { model: 'a/one', temperature: 0.2 },
      { model: 'a/one', temperature: 0.3 },
      { model: 'b/two', temperature: 0.2 },
      { model: 'a/one' },
    ]);
    expect(requestHashes[0]).toBe(requestHashes[1]);
    expect(new Set(requestHashes).size).toBe(4);
    expect(requestHashes[4]).toBe(hashCanonical(request));
  });
});
