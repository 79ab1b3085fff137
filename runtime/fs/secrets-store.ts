import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from './json-file-store.ts';
import type { AtomicFileSystem } from './atomic-write.ts';
import { WeftError } from '../../protocol/index.ts';

const SecretsSchema = z.object({
  version: z.literal(1),
  keys: z.record(z.string(), z.string()),
  /** The origin (scheme://host:port) each key was entered for; a key is used only towards that origin. */
  origins: z.record(z.string(), z.string()).optional(),
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

  /** Every key with the origin it was entered for (null: stored before keys were bound). */
  async boundKeys(): Promise<Record<string, { key: string; origin: string | null }>> {
    const secrets = await this.file.read();
    const bound: Record<string, { key: string; origin: string | null }> = {};
    for (const [id, key] of Object.entries(this.openAll(secrets)))
      bound[id] = { key, origin: secrets.origins?.[id] ?? null };
    return bound;
  }

  /** Bind keys stored before origins were kept to the origin their provider has now (once, at start). */
  async bindUnbound(originFor: (providerId: string) => string | null): Promise<void> {
    const secrets = await this.file.read();
    const unbound = Object.keys(secrets.keys).filter((id) => !secrets.origins?.[id] && originFor(id));
    if (unbound.length === 0) return;
    await this.file.update((current) => {
      const origins = { ...current.origins };
      for (const id of Object.keys(current.keys)) {
        const origin = originFor(id);
        if (!origins[id] && origin) origins[id] = origin;
      }
      return { ...current, origins };
    });
  }

  /**
   * Store a key, or remove it with null / ''. Other keys stay exactly as stored: one sealed on
   * another machine is kept, not dropped. Without the cipher a sealed file only lets keys be removed.
   */
  async setKey(providerId: string, key: string | null, origin?: string): Promise<void> {
    await this.setKeys({ [providerId]: key }, origin ? { [providerId]: origin } : {});
  }

  /**
   * Store or remove several keys in one atomic write: all of them change, or (on a refusal or failure) none.
   * `origins` binds each stored key to the origin it was entered for.
   */
  async setKeys(
    changes: Readonly<Record<string, string | null>>,
    origins: Readonly<Record<string, string>> = {},
  ): Promise<void> {
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
      const bound = { ...current.origins };
      for (const [providerId, key] of entries) {
        delete bound[providerId];
        if (key) keys[providerId] = cipher ? cipher.seal(key) : key;
        else delete keys[providerId];
        if (key && origins[providerId]) bound[providerId] = origins[providerId];
      }
      const base = { version: 1 as const, keys, ...(Object.keys(bound).length > 0 ? { origins: bound } : {}) };
      return cipher || current.sealed ? { ...base, sealed: true } : base;
    });
  }
}
