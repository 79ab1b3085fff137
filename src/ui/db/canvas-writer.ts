import type { CanvasDocument } from '../../../protocol/canvas-document.ts';
import { writeCanvasChanges } from './canvas-persistence.ts';
import { documentFromRecords, type CanvasRecords } from './canvas-records.ts';
import type { WeftDatabase } from './weft-database.ts';

export interface CanvasWriterOptions {
  database: WeftDatabase;
  /** Sends the durable record to the server (PUT /api/canvases/:id). */
  putDurable: (document: CanvasDocument, options: { keepalive: boolean }) => Promise<unknown>;
  now: () => number;
  onError: (error: unknown) => void;
  localDelayMs?: number;
  durableDelayMs?: number;
}

/**
 * Debounced persistence of the active canvas: IndexedDB rows after ~300 ms (only the records
 * that changed since the last write), the server's durable record after ~1 s.
 * `flush()` runs both at once (page hide, canvas switch, before export).
 */
export class CanvasWriter {
  private readonly options: Required<CanvasWriterOptions>;
  private written: CanvasRecords | null = null;
  private pending: CanvasRecords | null = null;
  private durablePending: CanvasRecords | null = null;
  private localTimer: ReturnType<typeof setTimeout> | null = null;
  private durableTimer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private durableInFlight = 0;

  constructor(options: CanvasWriterOptions) {
    this.options = { localDelayMs: 300, durableDelayMs: 1000, ...options };
  }

  /** Marks `records` as already stored (just loaded), so the next change writes only its diff. */
  adopt(records: CanvasRecords): void {
    this.written = records;
    this.pending = null;
  }

  schedule(records: CanvasRecords): void {
    if (this.written && this.written.canvas.id !== records.canvas.id) this.written = null;
    this.pending = records;
    this.durablePending = records;
    if (!this.localTimer) this.localTimer = setTimeout(() => void this.flushLocal(), this.options.localDelayMs);
    if (this.durableTimer) clearTimeout(this.durableTimer);
    this.durableTimer = setTimeout(() => void this.flushDurable(false), this.options.durableDelayMs);
  }

  flushLocal(): Promise<unknown> {
    if (this.localTimer) clearTimeout(this.localTimer);
    this.localTimer = null;
    const next = this.pending;
    if (!next) return this.chain;
    this.pending = null;
    // Serialise writes so a slow transaction never lands after a newer one.
    this.chain = this.chain.then(async () => {
      try {
        await writeCanvasChanges(this.options.database, this.written, next, this.options.now());
        this.written = next;
      } catch (error) {
        this.options.onError(error);
      }
    });
    return this.chain;
  }

  async flushDurable(keepalive: boolean): Promise<void> {
    if (this.durableTimer) clearTimeout(this.durableTimer);
    this.durableTimer = null;
    const next = this.durablePending;
    if (!next) return;
    this.durablePending = null;
    const document = documentFromRecords(next);
    this.durableInFlight += 1;
    try {
      // keepalive bodies are capped (64 KiB) by browsers; larger records go as a normal request.
      const small = keepalive && JSON.stringify(document).length < 60_000;
      await this.options.putDurable(document, { keepalive: small });
    } catch (error) {
      this.durablePending ??= next;
      this.options.onError(error);
    } finally {
      this.durableInFlight -= 1;
    }
  }

  async flush(keepalive = false): Promise<void> {
    await Promise.all([this.flushLocal(), this.flushDurable(keepalive)]);
  }

  hasPending(): boolean {
    return this.pending !== null || this.durablePending !== null;
  }

  /** True while a change waits to be written or its durable record is on its way (remote refreshes wait). */
  isBusy(): boolean {
    return this.hasPending() || this.durableInFlight > 0;
  }
}
