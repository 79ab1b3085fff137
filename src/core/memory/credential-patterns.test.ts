import { describe, expect, it } from 'vitest';
import { findCredential, luhnValid } from './credential-patterns.ts';

// SHA-256 of "weft": lowercase hex with letters and digits, as every request hash is.
const DIGEST = 'e627e2237f44543d8b79e2772a7cc79f6c8d0ea2854eef84f69fbef586339c91';

describe('credential patterns never enter memory', () => {
  it.each([
    ['api-key', 'my key is sk-proj-abcdefghijklmnop1234567890'],
    ['api-key', 'use sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAA'],
    ['aws-key', 'AKIAIOSFODNN7EXAMPLE is the access key'],
    ['github-token', 'token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'],
    ['slack-token', 'xoxb-1234567890-abcdefghij'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['password', 'password: hunter2'],
    ['password', 'My password is correct-horse'],
    ['password', 'api_key=abc123'],
    ['password', 'I use the password hunter2 for everything.'],
    ['password', 'My passphrase never changes.'],
    ['password', 'The PIN code of my phone is short.'],
    ['password', 'I keep my API key in a note.'],
    ['password', 'Here is my access token for the staging box.'],
    ['api-key', 'I like my Google key AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'],
    ['api-key', 'I deploy with Zq8vN2pLw4RtY6uX9bC3mK7sD1fG5hJ0 every day.'],
    ['card-number', 'my card is 4111 1111 1111 1111'],
    ['card-number', '5555-5555-5555-4444'],
    ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    ['private-key', '-----BEGIN RSA PRIVATE KEY-----'],
    // Beside the word "hash", a key is still a key: only an exact 64-digit hex digest is a hash's value.
    ['api-key', 'hash: Zq8vN2pLw4RtY6uX9bC3mK7sD1fG5hJ0'],
    ['api-key', `Request hash: ${DIGEST}0`],
    ['api-key', `Request hash: ${DIGEST.slice(0, 40)}`],
    ['api-key', 'my hash key sk-proj-abcdefghijklmnop1234567890'],
    ['api-key', `deploy key ${DIGEST}`], // an unlabelled hex secret still counts
    // The label must be a word of its own (or a camel-case `…Hash`): the end of another word labels no hash.
    ['api-key', `secrethash: ${DIGEST}`],
    ['api-key', `mykeyhash=${DIGEST.toUpperCase()}`],
  ])('finds %s in %j', (kind, text) => {
    expect(findCredential(text)).toBe(kind);
  });

  it.each([
    'I prefer tabs over spaces.',
    'A token is the smallest unit a tokenizer emits.',
    'My phone number is on the website.',
    'I was born in 1987 and moved in 2004.',
    'Order 4111 1111 1111 1112 failed', // 16 digits that fail the Luhn check
    'I like the sk-8 skateboard brand.',
    'I prefer internationalisation over i18n in prose.', // long words without digits are not keys
    'I work on Firefox 128 and Thunderbird 115.',
    // A SHA-256 digest labelled as a hash (the offline receipt's line, the app's JSON) is not a credential.
    `Request hash: ${DIGEST}`,
    `SHA-256 ${DIGEST.toUpperCase()}`,
    `{"requestHash": "${DIGEST}", "blockHash":"${DIGEST}"}`,
  ])('leaves ordinary text alone: %j', (text) => {
    expect(findCredential(text)).toBeNull();
  });

  it('checks card numbers with Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
  });
});
