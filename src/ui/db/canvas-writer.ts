import type { CanvasDocument } from '../../../protocol/index.ts';
import { writeCanvasChanges } from './canvas-persistence.ts';
import { fillCanvasRows } from './fill-canvas-rows.ts';
import { pauseForPage } from './pause-for-page.ts';
import { documentFromRecords, type CanvasRecords } from './canvas-records.ts';
import type { WeftDatabase } from './weft-database.ts';

export interface CanvasWriterOptions {
  database: WeftDatabase;
  /**
   * Sends the durable record to the server (PUT /api/canvases/:id). `mark` is what the caller passed to
   * `schedule` with these records (the store's journal position), so it knows which local steps the save holds.
   */
  putDurable: (document: CanvasDocument, options: { keepalive: boolean; mark: number }) => Promise<unknown>;
  now: () => number;
  onError: (error: unknown) => void;
  localDelayMs?: number;
  durableDelayMs?: number;
  /** Between slices of a cache fill (`fill`). */
  pause?: () => Promise<void>;
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
  private durablePending: { records: CanvasRecords; mark: number } | null = null;
  /** Durable saves run one after another: an older, larger PUT can never land after a newer one. */
  private durableChain: Promise<void> = Promise.resolve();
  private localTimer: ReturnType<typeof setTimeout> | null = null;
  private durableTimer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private durableInFlight = 0;
  private durableWrites = new Set<Promise<unknown>>();
  /** Canvases deleted elsewhere: a failed save of one is not retried. */
  private discarded = new Set<string>();
  /** Cache fills queued or under way. */
  private filling = 0;
  /** Canvases whose read failed its check: never cached. */
  private uncached = new Set<string>();

  constructor(options: CanvasWriterOptions) {
    this.options = { localDelayMs: 300, durableDelayMs: 1000, pause: pauseForPage, ...options };
  }

  /**
   * A canvas read from the server and painted before it is in IndexedDB: its rows are written after `ready` (the
   * schema check of what was read) in slices (`fillCanvasRows`), on the same chain as every later write, so an edit
   * made meanwhile is written after the fill, as a difference from it, and is never overtaken. A refused `ready`
   * leaves the canvas uncached (its caller says why).
   */
  fill(records: CanvasRecords, options: { ready: Promise<void>; revision: string | null }): Promise<unknown> {
    this.uncached.delete(records.canvas.id);
    this.written = null;
    this.pending = null;
    this.filling += 1;
    this.chain = this.chain.then(async () => {
      try {
        await options.ready;
      } catch {
        // What was read is not kept in this browser, nor are local writes of it (the server still checks saves).
        this.uncached.add(records.canvas.id);
        this.filling -= 1;
        return;
      }
      try {
        await fillCanvasRows(this.options.database, records, {
          now: this.options.now(),
          revision: options.revision,
          pause: this.options.pause,
        });
        // A write scheduled meanwhile (for this canvas) diffs against what the fill stored.
        if (this.written === null) this.written = records;
      } catch (error) {
        this.options.onError(error);
      } finally {
        this.filling -= 1;
      }
    });
    return this.chain;
  }

  /** Marks `records` as already stored (just loaded), so the next change writes only its diff. */
  adopt(records: CanvasRecords): void {
    this.written = records;
    this.pending = null;
  }

  schedule(records: CanvasRecords, mark = 0): void {
    this.discarded.delete(records.canvas.id);
    if (this.written && this.written.canvas.id !== records.canvas.id) this.written = null;
    this.pending = records;
    this.durablePending = { records, mark };
    if (!this.localTimer) this.localTimer = setTimeout(() => void this.flushLocal(), this.options.localDelayMs);
    if (this.durableTimer) clearTimeout(this.durableTimer);
    this.durableTimer = setTimeout(() => void this.flushDurable(false), this.options.durableDelayMs);
  }

  /**
   * A rebase replaced the open canvas with `records`, which its caller saves to the server itself: the rows follow,
   * and a durable save still waiting (an older local copy, without the other writer's changes) is dropped.
   */
  replaceRebased(records: CanvasRecords): void {
    if (this.written && this.written.canvas.id !== records.canvas.id) this.written = null;
    this.pending = records;
    if (this.durablePending?.records.canvas.id === records.canvas.id) this.durablePending = null;
    if (!this.localTimer) this.localTimer = setTimeout(() => void this.flushLocal(), this.options.localDelayMs);
  }

  flushLocal(): Promise<unknown> {
    if (this.localTimer) clearTimeout(this.localTimer);
    this.localTimer = null;
    const next = this.pending;
    if (!next) return this.chain;
    this.pending = null;
    // Serialise writes so a slow transaction never lands after a newer one.
    if (this.uncached.has(next.canvas.id)) return this.chain;
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

  flushDurable(keepalive: boolean): Promise<void> {
    if (this.durableTimer) clearTimeout(this.durableTimer);
    this.durableTimer = null;
    if (!this.durablePending) return this.durableChain;
    this.durableInFlight += 1;
    // The newest pending records are taken when this save's turn comes, not now.
    const turn = this.durableChain.then(() => this.sendDurable(keepalive));
    this.durableChain = turn;
    this.durableWrites.add(turn);
    void turn.finally(() => {
      this.durableWrites.delete(turn);
      this.durableInFlight -= 1;
    });
    return turn;
  }

  private async sendDurable(keepalive: boolean): Promise<void> {
    const next = this.durablePending;
    if (!next) return;
    this.durablePending = null;
    const document = documentFromRecords(next.records);
    // keepalive bodies are capped (64 KiB) by browsers; larger records go as a normal request.
    const small = keepalive && JSON.stringify(document).length < 60_000;
    try {
      await this.options.putDurable(document, { keepalive: small, mark: next.mark });
    } catch (error) {
      if (this.discarded.has(next.records.canvas.id)) return;
      this.durablePending ??= next;
      this.options.onError(error);
    }
  }

  /**
   * The canvas was deleted elsewhere: its waiting saves are dropped (never sent), and this resolves once
   * writes already under way have ended. True when a durable save was in flight (it may have re-created
   * the server's record, so the caller deletes it again).
   */
  async discard(canvasId: string): Promise<boolean> {
    this.discarded.add(canvasId);
    if (this.pending?.canvas.id === canvasId) {
      this.pending = null;
      if (this.localTimer) clearTimeout(this.localTimer);
      this.localTimer = null;
    }
    if (this.durablePending?.records.canvas.id === canvasId) {
      this.durablePending = null;
      if (this.durableTimer) clearTimeout(this.durableTimer);
      this.durableTimer = null;
    }
    if (this.written?.canvas.id === canvasId) this.written = null;
    const inFlight = [...this.durableWrites];
    await Promise.allSettled([this.chain, ...inFlight]);
    return inFlight.length > 0;
  }

  async flush(keepalive = false): Promise<void> {
    await Promise.all([this.flushLocal(), this.flushDurable(keepalive)]);
  }

  hasPending(): boolean {
    return this.pending !== null || this.durablePending !== null;
  }

  /** True while a change waits to be written or its durable record is on its way (remote refreshes wait). */
  isBusy(): boolean {
    return this.hasPending() || this.durableInFlight > 0 || this.filling > 0;
  }
}
