import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretsStore, type SecretsCipher } from './secrets-store.ts';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'weft-secrets-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A reversible stand-in for the OS keychain. */
const rot: SecretsCipher = {
  seal: (plain) => Buffer.from([...Buffer.from(plain)].map((byte) => byte ^ 0x5a)).toString('base64'),
  open: (sealed) => Buffer.from([...Buffer.from(sealed, 'base64')].map((byte) => byte ^ 0x5a)).toString(),
};

describe('SecretsStore', () => {
  it('stores, reads and removes keys in a 0600 file', async () => {
    const store = new SecretsStore(home);
    await store.setKey('openai', 'sk-plain-1');
    await store.setKey('local', 'sk-plain-2');
    await store.setKey('local', '');
    expect(await new SecretsStore(home).allKeys()).toEqual({ openai: 'sk-plain-1' });
    expect((await stat(join(home, 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('seals keys at rest with a cipher, and a store without it sees no keys', async () => {
    const store = new SecretsStore(home, undefined, rot);
    await store.setKey('openai', 'sk-sealed-key');
    const text = await readFile(join(home, 'secrets.json'), 'utf8');
    expect(text).not.toContain('sk-sealed-key');
    expect(await new SecretsStore(home, undefined, rot).getKey('openai')).toBe('sk-sealed-key');
    expect(await new SecretsStore(home).allKeys()).toEqual({});
  });

  it('never drops a key it cannot open: one sealed elsewhere survives a change, and a store without the cipher may only remove', async () => {
    await new SecretsStore(home, undefined, rot).setKey('openai', 'sk-from-desktop');
    const otherMachine: SecretsCipher = {
      seal: rot.seal,
      open: () => {
        throw new Error('not this keychain');
      },
    };
    await new SecretsStore(home, undefined, otherMachine).setKey('anthropic', 'sk-ant-here');
    expect(await new SecretsStore(home, undefined, rot).allKeys()).toEqual({
      openai: 'sk-from-desktop',
      anthropic: 'sk-ant-here',
    });

    const web = new SecretsStore(home);
    await expect(web.setKey('openrouter', 'sk-or-web')).rejects.toMatchObject({ code: 'keys-sealed' });
    await web.setKey('anthropic', null);
    expect(await new SecretsStore(home, undefined, rot).allKeys()).toEqual({ openai: 'sk-from-desktop' });
  });
});
