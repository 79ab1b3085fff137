import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storedCanvasDocument, type CanvasDocument } from '../../protocol/index.ts';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { resolveBackupFolder, type ProtectedFolder } from './backup-folder-guard.ts';
import { KeyedQueue } from './keyed-queue.ts';

const SUFFIX = '.weft.json';
/**
 * File names are limited to 255 bytes: 100 for the name leaves room for ` (<id>)` (ids are at most
 * 100), the suffix, and the atomic write's `.<name>.<pid>.<random>.tmp` around all of it.
 */
const MAX_BASE_BYTES = 100;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** At most `limit` UTF-8 bytes of `text`, never splitting a character. */
function capBytes(text: string, limit: number): string {
  let result = '';
  let bytes = 0;
  for (const character of text) {
    bytes += Buffer.byteLength(character);
    if (bytes > limit) break;
    result += character;
  }
  return result;
}

/**
 * `<name>.weft.json` with the name made safe as a file name on every platform: no separators or
 * control characters, no dots or spaces at the ends, at most 100 bytes, no reserved device names.
 * An empty result falls back to the canvas id; `withId` appends ` (<id>)` to tell namesakes apart.
 */
export function backupFileName(name: string, id: string, withId = false): string {
  const trim = (text: string) => text.replace(/^[.\s]+|[.\s]+$/g, '');
  const base = trim(capBytes(trim(name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-')), MAX_BASE_BYTES)) || id;
  const full = withId && base !== id ? `${base} (${id})` : base;
  return (WINDOWS_RESERVED.test(full) ? full + '_' : full) + SUFFIX;
}

/** Whether the file at `path` is missing or is a backup of canvas `id` (anything else is not ours to replace). */
async function isFreeFor(path: string, id: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  try {
    return (JSON.parse(text) as { canvas?: { id?: unknown } }).canvas?.id === id;
  } catch {
    return false;
  }
}

export interface CanvasBackupOptions {
  /** Folder chosen in settings, read at flush time; null turns backups off. */
  folder: () => Promise<string | null>;
  /** Folders a backup must never land in (session roots, the canvas records), read at flush time. */
  protectedFolders?: () => readonly ProtectedFolder[];
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
        const configured = await this.options.folder();
        if (!configured) return;
        // Real paths at every flush: the folder may have been swapped for a symlink since it was configured.
        const guarded = this.options.protectedFolders?.() ?? [];
        await mkdir(await resolveBackupFolder(configured, guarded), { recursive: true });
        const folder = await resolveBackupFolder(configured, guarded);
        // Two canvases may share a name; the second one's backup gets its id so neither replaces the other.
        let target = join(folder, backupFileName(entry.document.canvas.name, id));
        if (!(await isFreeFor(target, id))) target = join(folder, backupFileName(entry.document.canvas.name, id, true));
        await writeFileAtomic(target, JSON.stringify(storedCanvasDocument(entry.document), null, 2) + '\n', {
          mode: 0o600,
          fileSystem: this.options.fileSystem,
        });
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

  /**
   * Drop canvas `id`'s pending backup (it was deleted) and wait out a write already under way,
   * so no backup of it appears after this resolves.
   */
  async discard(id: string): Promise<void> {
    const entry = this.pending.get(id);
    if (entry) clearTimeout(entry.timer);
    this.pending.delete(id);
    await this.queue.run(id, async () => {});
  }

  cancel(): void {
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    this.pending.clear();
  }
}
