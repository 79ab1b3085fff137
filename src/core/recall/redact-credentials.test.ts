import { describe, expect, it } from 'vitest';
import { redactCredentials } from './redact-credentials.ts';

// SHA-256 of "weft", as the offline receipt prints a request hash.
const DIGEST = 'e627e2237f44543d8b79e2772a7cc79f6c8d0ea2854eef84f69fbef586339c91';
const RECEIPT = [
  'Offline receipt: no model was called. This is what a model would have received.',
  '',
  'Messages: 2',
  'Token estimate: ~40 (about 4 characters per token)',
  `Request hash: ${DIGEST}`,
].join('\n');

describe('redactCredentials (C16)', () => {
  it('leaves the offline receipt’s request hash alone: a digest labelled as a hash is not a key', () => {
    expect(redactCredentials(RECEIPT)).toEqual({ text: RECEIPT, redactions: 0 });
  });

  it('still redacts a real-looking key next to the word hash, and a hex secret with no hash label', () => {
    const key = 'Zq8vN2pLw4RtY6uX9bC3mK7sD1fG5hJ0';
    expect(redactCredentials(`The hash: ${key} opens the vault.`)).toEqual({
      text: 'The hash: [redacted api-key] opens the vault.',
      redactions: 1,
    });
    expect(redactCredentials(`hash sk-proj-abcdefghijklmnop1234567890`).text).toBe('hash [redacted api-key]');
    // One character more than a digest is no digest.
    expect(redactCredentials(`Request hash: ${DIGEST}f`).text).toBe('Request hash: [redacted api-key]');
    expect(redactCredentials(`I deploy with ${DIGEST} every day.`).redactions).toBe(1);
  });
});
