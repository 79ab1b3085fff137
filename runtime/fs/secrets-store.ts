import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from './json-file-store.ts';
import type { AtomicFileSystem } from './atomic-write.ts';

const SecretsSchema = z.object({ version: z.literal(1), keys: z.record(z.string(), z.string()) });
type Secrets = z.infer<typeof SecretsSchema>;

/**
 * API keys entered in the app, in `$WEFT_HOME/secrets.json` (0600, atomic). Nothing else in
 * Weft reads this file, and no route returns its contents: callers get `hasKey` only.
 */
export class SecretsStore {
  private readonly file: JsonFileStore<Secrets>;

  constructor(home: string, fileSystem?: AtomicFileSystem) {
    this.file = new JsonFileStore(join(home, 'secrets.json'), SecretsSchema, () => ({ version: 1, keys: {} }), fileSystem);
  }

  async getKey(providerId: string): Promise<string | null> {
    const secrets = await this.file.read();
    return Object.hasOwn(secrets.keys, providerId) ? secrets.keys[providerId]! : null;
  }

  async allKeys(): Promise<Record<string, string>> {
    return { ...(await this.file.read()).keys };
  }

  /** Store a key, or remove it with null / ''. */
  async setKey(providerId: string, key: string | null): Promise<void> {
    await this.file.update((current) => {
      const keys = { ...current.keys };
      if (key) keys[providerId] = key;
      else delete keys[providerId];
      return { version: 1, keys };
    });
  }
}
