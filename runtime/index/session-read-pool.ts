import { Worker } from 'node:worker_threads';
import type { SessionFileRead } from './session-catalog.ts';

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

  constructor(roots: readonly string[], size: number) {
    const loader = import.meta.resolve('tsx');
    for (let position = 0; position < size; position += 1) {
      const worker = new Worker(new URL('./session-read-worker.ts', import.meta.url), {
        workerData: { roots: [...roots] },
        execArgv: ['--import', loader],
      });
      worker.on('message', (message: { id: number; result?: SessionFileRead; error?: { message: string; code?: string } }) => {
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id);
        this.load[position]! -= 1;
        if (message.error) waiting.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        else waiting.resolve(message.result!);
      });
      worker.on('error', (error) => {
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      });
      this.workers.push(worker);
      this.load.push(0);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  read(path: string, resume: { fromOffset: number; state: string } | null): Promise<SessionFileRead> {
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
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    this.workers.length = 0;
  }
}
