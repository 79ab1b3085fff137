import { readFile, rename } from 'node:fs/promises';
import type { z } from 'zod';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { KeyedQueue } from './keyed-queue.ts';

/**
 * One small JSON file (0600) read through a schema and replaced atomically.
 * A missing file reads as `empty`; a corrupt one also reads as `empty`, and the next update first
 * moves it aside to `<name>.corrupt-<time>` (nothing is lost). Reads are served from memory after the first one.
 */
export class JsonFileStore<T> {
  private readonly queue = new KeyedQueue();
  /** This process is the file's only writer, so the last value read or written stays valid. */
  private cached: T | undefined;
  /** The file on disk could not be read through the schema; keep it before the first write. */
  private corrupt = false;

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
      if (parsed.success) return parsed.data;
    } catch {
      /* not JSON */
    }
    this.corrupt = true;
    return this.empty();
  }

  /** Read-modify-write under a lock so concurrent updates never lose each other. */
  update(change: (current: T) => T): Promise<T> {
    return this.queue.run('file', async () => {
      const next = change(await this.read());
      if (this.corrupt) {
        await rename(this.path, `${this.path}.corrupt-${Date.now()}`);
        this.corrupt = false;
      }
      await writeFileAtomic(this.path, JSON.stringify(next, null, 2) + '\n', {
        mode: 0o600,
        fileSystem: this.fileSystem,
      });
      this.cached = structuredClone(next);
      return next;
    });
  }
}
