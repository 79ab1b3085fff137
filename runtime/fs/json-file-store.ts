import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { KeyedQueue } from './keyed-queue.ts';

/**
 * One small JSON file (0600) read through a schema and replaced atomically.
 * A missing file reads as `empty`; a corrupt one also reads as `empty` but is never overwritten
 * until the next deliberate update. Reads are served from memory after the first one.
 */
export class JsonFileStore<T> {
  private readonly queue = new KeyedQueue();
  /** This process is the file's only writer, so the last value read or written stays valid. */
  private cached: T | undefined;

  constructor(
    private readonly path: string,
    private readonly schema: z.ZodType<T>,
    private readonly empty: () => T,
    private readonly fileSystem?: AtomicFileSystem,
  ) {}

  async read(): Promise<T> {
    if (this.cached !== undefined) return structuredClone(this.cached);
    this.cached = await this.readFromDisk();
    return structuredClone(this.cached);
  }

  private async readFromDisk(): Promise<T> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return this.empty();
    }
    try {
      const parsed = this.schema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : this.empty();
    } catch {
      return this.empty();
    }
  }

  /** Read-modify-write under a lock so concurrent updates never lose each other. */
  update(change: (current: T) => T): Promise<T> {
    return this.queue.run('file', async () => {
      const next = change(await this.read());
      await writeFileAtomic(this.path, JSON.stringify(next, null, 2) + '\n', { mode: 0o600, fileSystem: this.fileSystem });
      this.cached = structuredClone(next);
      return next;
    });
  }
}
