import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SessionFileRead } from './session-catalog.ts';

/**
 * The desktop bundle defines this at build time (desktop/build-desktop.mjs): there the worker is a plain
 * `.mjs` built next to the bundle, since `./session-read-worker.ts` does not exist beside `main.mjs`.
 */
const BUNDLED_WORKER = process.env.WEFT_BUNDLED_SESSION_WORKER;

/** Workers run the TypeScript reader through tsx, like the CLI itself (no build step); bundled, the built one. */
const BOOTSTRAP = BUNDLED_WORKER
  ? `import(${JSON.stringify(new URL(BUNDLED_WORKER, import.meta.url).href)}).catch((error) => { throw error; });`
  : `(async () => {
  const { register } = await import(${JSON.stringify(pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href)});
  register();
  await import(${JSON.stringify(new URL('./session-read-worker.ts', import.meta.url).href)});
})().catch((error) => { throw error; });`;

/** Measured on a 1 GB corpus: see benchmark/perf/README.md, "Why layer". */
const WORKER_YOUNG_GENERATION_MB = 8;

interface Pending {
  resolve: (read: SessionFileRead) => void;
  reject: (error: Error) => void;
}

/**
 * Worker threads that parse session files while the main thread writes SQLite. Used only for bulk work
 * (a first index or a rebuild); a query's refresh reads the few moved files in-process.
 */
export class SessionReadPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly load: number[] = [];
  private nextId = 1;
  private failure: Error | null = null;
  private closing = false;

  constructor(roots: readonly string[], size: number) {
    for (let position = 0; position < size; position += 1) {
      const worker = new Worker(BOOTSTRAP, {
        eval: true,
        workerData: { roots: [...roots] },
        // A reader's garbage is short-lived (lines parsed, turns posted): a small young generation holds it as
        // well, and each worker's heap stops growing toward the default's size (peak RSS of a bulk index).
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      worker.on(
        'message',
        (message: { id: number; result?: SessionFileRead; error?: { message: string; code?: string } }) => {
          const waiting = this.pending.get(message.id);
          if (!waiting) return;
          this.pending.delete(message.id);
          this.load[position]! -= 1;
          if (message.error)
            waiting.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
          else waiting.resolve(message.result!);
        },
      );
      const fail = (error: Error) => {
        this.failure ??= error;
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (!this.closing) fail(new Error(`a session reader stopped (exit code ${code})`));
      });
      this.workers.push(worker);
      this.load.push(0);
    }
  }

  /** True once a worker died: callers should read in-process instead. */
  get broken(): boolean {
    return this.failure !== null;
  }

  get size(): number {
    return this.workers.length;
  }

  read(path: string, resume: { fromOffset: number; state: string } | null): Promise<SessionFileRead> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    let chosen = 0;
    for (let position = 1; position < this.load.length; position += 1) {
      if (this.load[position]! < this.load[chosen]!) chosen = position;
    }
    this.load[chosen]! += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[chosen]!.postMessage({ id, path, resume });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    this.workers.length = 0;
  }
}
