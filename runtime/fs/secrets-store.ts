import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from './json-file-store.ts';
import type { AtomicFileSystem } from './atomic-write.ts';
import { WeftError } from './weft-error.ts';

const SecretsSchema = z.object({
  version: z.literal(1),
  keys: z.record(z.string(), z.string()),
  /** Set when the keys are sealed by the OS keychain (the desktop shell's safeStorage). */
  sealed: z.boolean().optional(),
});
type Secrets = z.infer<typeof SecretsSchema>;

/** Seals keys at rest, e.g. Electron's safeStorage (OS keychain); base64 text in the file. */
export interface SecretsCipher {
  seal(plain: string): string;
  open(sealed: string): string;
}

/**
 * API keys entered in the app, in `$WEFT_HOME/secrets.json` (0600, atomic). Nothing else in
 * Weft reads this file, and no route returns its contents: callers get `hasKey` only.
 * With a cipher (desktop), keys are sealed at rest; a sealed key that cannot be opened reads as absent.
 */
export class SecretsStore {
  private readonly file: JsonFileStore<Secrets>;

  constructor(
    home: string,
    fileSystem?: AtomicFileSystem,
    private readonly cipher?: SecretsCipher,
  ) {
    this.file = new JsonFileStore(
      join(home, 'secrets.json'),
      SecretsSchema,
      () => ({ version: 1, keys: {} }),
      fileSystem,
    );
  }

  private openAll(secrets: Secrets): Record<string, string> {
    if (!secrets.sealed) return { ...secrets.keys };
    const keys: Record<string, string> = {};
    for (const [id, sealed] of Object.entries(secrets.keys)) {
      if (!this.cipher) continue;
      try {
        keys[id] = this.cipher.open(sealed);
      } catch {
        /* sealed on another machine or account: treat as no key */
      }
    }
    return keys;
  }

  async getKey(providerId: string): Promise<string | null> {
    const keys = await this.allKeys();
    return Object.hasOwn(keys, providerId) ? keys[providerId]! : null;
  }

  async allKeys(): Promise<Record<string, string>> {
    return this.openAll(await this.file.read());
  }

  /**
   * Store a key, or remove it with null / ''. Other keys stay exactly as stored: one sealed on
   * another machine is kept, not dropped. Without the cipher a sealed file only lets keys be removed.
   */
  async setKey(providerId: string, key: string | null): Promise<void> {
    await this.setKeys({ [providerId]: key });
  }

  /** Store or remove several keys in one atomic write: all of them change, or (on a refusal or failure) none. */
  async setKeys(changes: Readonly<Record<string, string | null>>): Promise<void> {
    const entries = Object.entries(changes);
    if (entries.length === 0) return;
    await this.file.update((current) => {
      const cipher = this.cipher;
      if (entries.some(([, key]) => key) && current.sealed && !cipher) {
        throw new WeftError(
          'keys-sealed',
          'The stored keys are sealed by the desktop app (OS keychain); add keys there, or remove them here first.',
          409,
        );
      }
      // A plain file meeting a cipher for the first time is sealed whole.
      const keys =
        cipher && !current.sealed
          ? Object.fromEntries(Object.entries(current.keys).map(([id, plain]) => [id, cipher.seal(plain)]))
          : { ...current.keys };
      for (const [providerId, key] of entries) {
        if (key) keys[providerId] = cipher ? cipher.seal(key) : key;
        else delete keys[providerId];
      }
      return cipher || current.sealed ? { version: 1, keys, sealed: true } : { version: 1, keys };
    });
  }
}
