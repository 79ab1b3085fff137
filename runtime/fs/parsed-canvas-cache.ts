import type { CanvasDocument } from '../../protocol/index.ts';

interface Entry {
  revision: string;
  document: CanvasDocument;
  /** The stored text's length: what the bound counts (a parsed canvas takes a few times that in memory). */
  size: number;
}

export interface ParsedCanvasCacheOptions {
  /** At most this many canvases kept (the least recently used go first). */
  maxEntries?: number;
  /** At most this many characters of stored text across the kept canvases. */
  maxSize?: number;
}

/** Freezes every object of a parsed record, so no reader can change what the next reader of the same revision gets. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/**
 * Parsed, checked canvas records by id and revision (the SHA-256 of the stored bytes): a read of an unchanged record
 * skips the JSON parse, the migrations and the whole-document schema check (seconds for a 20,000-node canvas). An
 * entry is replaced by each write, dropped on delete, and never used for another revision, so a record changed
 * outside Weft is parsed again. Kept documents are frozen: they are shared by every reader.
 */
export class ParsedCanvasCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxSize: number;
  private size = 0;

  constructor(options: ParsedCanvasCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 8;
    this.maxSize = options.maxSize ?? 256 * 1024 * 1024;
  }

  /** The document stored at `revision`, or undefined when that revision is not kept. */
  get(id: string, revision: string): CanvasDocument | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.revision !== revision) return undefined;
    // Most recently used last, so eviction takes the oldest first.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.document;
  }

  /** Keeps `document` as what the stored text of `revision` (`size` characters) reads as. */
  set(id: string, revision: string, document: CanvasDocument, size: number): void {
    this.delete(id);
    if (size > this.maxSize) return;
    deepFreeze(document);
    this.entries.set(id, { revision, document, size });
    this.size += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.size <= this.maxSize) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
  }

  delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.size -= entry.size;
  }
}
