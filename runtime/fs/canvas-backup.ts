import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CanvasDocument } from '../../protocol/canvas-document.ts';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { KeyedQueue } from './keyed-queue.ts';

/** A canvas name made safe as a file name on every platform. */
export function backupFileName(name: string, fallback: string): string {
  const cleaned = name
    .replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100);
  return (cleaned || fallback) + '.weft.json';
}

export interface CanvasBackupOptions {
  /** Folder chosen in settings, read at flush time; null turns backups off. */
  folder: () => Promise<string | null>;
  delayMs?: number;
  fileSystem?: AtomicFileSystem;
  onError?: (error: unknown) => void;
}

/** Debounced folder backup: the last document per canvas is written `delayMs` after the last change. */
export class CanvasBackup {
  private readonly pending = new Map<string, { document: CanvasDocument; timer: ReturnType<typeof setTimeout> }>();
  private readonly queue = new KeyedQueue();
  private readonly delayMs: number;

  constructor(private readonly options: CanvasBackupOptions) {
    this.delayMs = options.delayMs ?? 2000;
  }

  schedule(document: CanvasDocument): void {
    const id = document.canvas.id;
    const existing = this.pending.get(id);
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => void this.flushOne(id), this.delayMs);
    timer.unref?.();
    this.pending.set(id, { document, timer });
  }

  private flushOne(id: string): Promise<void> {
    const entry = this.pending.get(id);
    if (!entry) return Promise.resolve();
    this.pending.delete(id);
    clearTimeout(entry.timer);
    return this.queue.run(id, async () => {
      try {
        const folder = await this.options.folder();
        if (!folder) return;
        await mkdir(folder, { recursive: true });
        const target = join(folder, backupFileName(entry.document.canvas.name, id));
        await writeFileAtomic(target, JSON.stringify(entry.document, null, 2) + '\n', { mode: 0o600, fileSystem: this.options.fileSystem });
      } catch (error) {
        this.options.onError?.(error);
      }
    });
  }

  /** Write everything pending now (used on shutdown and in tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((id) => this.flushOne(id)));
    await this.queue.idle();
  }

  cancel(): void {
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    this.pending.clear();
  }
}
