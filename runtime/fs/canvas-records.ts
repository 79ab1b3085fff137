import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CanvasDocumentSchema, type CanvasDocument } from '../../protocol/canvas-document.ts';
import { migrateCanvasDocument } from '../../protocol/canvas-migrations.ts';
import { CANVAS_ID_PATTERN, type CanvasSummary } from '../../protocol/http-api.ts';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { WeftError } from './weft-error.ts';

const SUFFIX = '.weft.json';

export function assertCanvasId(id: string): void {
  if (!CANVAS_ID_PATTERN.test(id)) {
    throw new WeftError('invalid-id', 'Canvas ids are 1–100 letters, digits, "_" or "-".', 400);
  }
}

/** Explain the first few schema problems in words a person can act on. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(document)'}: ${issue.message}`)
    .join('; ');
}

export interface CanvasRecordsOptions {
  directory: string;
  fileSystem?: AtomicFileSystem;
}

/**
 * Durable canvas records (C26): `<dir>/<id>.weft.json`, one file per canvas, replaced atomically.
 * Writes to one canvas are queued so they never interleave; a stored file is only ever replaced
 * by a document that passed the schema.
 */
export class CanvasRecords {
  private readonly queue = new KeyedQueue();
  /** Listing summaries by id, reused while the file's mtime and size are unchanged (big canvases parse slowly). */
  private readonly summaries = new Map<string, { mtimeMs: number; size: number; summary: CanvasSummary }>();

  constructor(private readonly options: CanvasRecordsOptions) {}

  private pathOf(id: string): string {
    assertCanvasId(id);
    return join(this.options.directory, id + SUFFIX);
  }

  async list(): Promise<{ canvases: CanvasSummary[]; unreadable: string[] }> {
    let names: string[];
    try {
      names = await readdir(this.options.directory);
    } catch {
      return { canvases: [], unreadable: [] };
    }
    const canvases: CanvasSummary[] = [];
    const unreadable: string[] = [];
    for (const name of names.sort()) {
      if (!name.endsWith(SUFFIX) || name.startsWith('.')) continue;
      const id = name.slice(0, -SUFFIX.length);
      if (!CANVAS_ID_PATTERN.test(id)) continue;
      try {
        const info = await stat(join(this.options.directory, name));
        const cached = this.summaries.get(id);
        if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) {
          canvases.push(cached.summary);
          continue;
        }
        const { document, updatedAt } = await this.read(id);
        const summary = { id, name: document.canvas.name, updatedAt, nodeCount: document.nodes.length };
        this.summaries.set(id, { mtimeMs: info.mtimeMs, size: info.size, summary });
        canvases.push(summary);
      } catch {
        unreadable.push(id);
      }
    }
    canvases.sort((left, right) => right.updatedAt - left.updatedAt);
    return { canvases, unreadable };
  }

  async read(id: string): Promise<{ document: CanvasDocument; updatedAt: number }> {
    const path = this.pathOf(id);
    let text: string;
    let updatedAt: number;
    try {
      [text, updatedAt] = await Promise.all([
        readFile(path, 'utf8'),
        stat(path).then((info) => Math.floor(info.mtimeMs)),
      ]);
    } catch {
      throw new WeftError('not-found', `No canvas record "${id}".`, 404);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new WeftError(
        'corrupt-record',
        `The stored record for "${id}" is not valid JSON; it was left untouched.`,
        422,
      );
    }
    // Older records are lifted in memory through the named migrations; the file stays as it is.
    const loaded = migrateCanvasDocument(json);
    if (!loaded.ok) {
      throw new WeftError(
        'corrupt-record',
        `The stored record for "${id}" cannot be read: ${loaded.error.message} It was left untouched.`,
        422,
      );
    }
    return { document: loaded.document, updatedAt };
  }

  /** Validate and write atomically; returns the record's new modification time. */
  async write(id: string, document: unknown): Promise<{ document: CanvasDocument; updatedAt: number }> {
    const path = this.pathOf(id);
    const parsed = CanvasDocumentSchema.safeParse(document);
    if (!parsed.success) {
      throw new WeftError(
        'invalid-canvas',
        `Not a valid canvas document: ${describeIssues(parsed.error.issues)}.`,
        400,
      );
    }
    if (parsed.data.canvas.id !== id) {
      throw new WeftError('invalid-canvas', `The document is canvas "${parsed.data.canvas.id}", not "${id}".`, 400);
    }
    const text = JSON.stringify(parsed.data);
    return this.queue.run(id, async () => {
      await writeFileAtomic(path, text, { mode: 0o600, fileSystem: this.options.fileSystem });
      const updatedAt = Math.floor((await stat(path)).mtimeMs);
      return { document: parsed.data, updatedAt };
    });
  }

  async delete(id: string): Promise<boolean> {
    const path = this.pathOf(id);
    this.summaries.delete(id);
    return this.queue.run(id, async () => {
      try {
        await unlink(path);
        return true;
      } catch {
        return false;
      }
    });
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }
}
