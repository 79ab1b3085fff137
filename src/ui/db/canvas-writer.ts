import type { CanvasDocument } from '../../../protocol/index.ts';
import { markRevisionExact, sameRecords, writeCanvasChanges } from './canvas-persistence.ts';
import { fillCanvasRows } from './fill-canvas-rows.ts';
import { pauseForPage } from './pause-for-page.ts';
import { documentFromRecords, type CanvasRecords } from './canvas-records.ts';
import { acknowledgePending } from './pending-queue.ts';
import type { PendingRow, WeftDatabase } from './weft-database.ts';

/**
 * What a durable save stored: the record's new revision and, when the caller saved other records than the ones it
 * was given (a rebase onto a newer record, handed to `replaceRebased`), those.
 */
export interface DurableSaved {
  revision: string;
  records?: CanvasRecords;
  /** The journal position the stored record holds, when it is not the one the save was asked with (a rebase). */
  mark?: number;
}

export interface CanvasWriterOptions {
  database: WeftDatabase;
  /**
   * Sends the durable record to the server (PUT /api/canvases/:id). `mark` is what the caller passed to
   * `schedule` with these records (the store's journal position), so it knows which local steps the save holds.
   * Resolving with the revision lets the writer note when the rows are exactly that record (`RevisionRow.exact`).
   */
  putDurable: (
    document: CanvasDocument,
    options: { keepalive: boolean; mark: number },
  ) => Promise<DurableSaved | undefined | void>;
  now: () => number;
  onError: (error: unknown) => void;
  /** The page whose pending steps this writer stores and acknowledges (`PendingRow.owner`). */
  owner?: string;
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
  /** The records the rows were last written as, set only on the chain: what a landed save is compared with. */
  private rowsHold: CanvasRecords | null = null;
  private pending: CanvasRecords | null = null;
  private durablePending: { records: CanvasRecords; mark: number } | null = null;
  /** Steps scheduled with the records not yet written: they go into IndexedDB in the rows' own transaction. */
  private queued: PendingRow[] = [];
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
    this.options = { localDelayMs: 300, durableDelayMs: 1000, pause: pauseForPage, owner: '', ...options };
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
        this.rowsHold = records;
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

  /** True when this canvas's rows were last written (or loaded) as exactly `records` and nothing waits to be. */
  holds(records: CanvasRecords): boolean {
    if (this.isBusy() || this.uncached.has(records.canvas.id)) return false;
    return this.written !== null && sameRecords(this.written, records);
  }

  /** `queued`: the step that made these records, kept in IndexedDB with them until a save holding it lands. */
  schedule(records: CanvasRecords, mark = 0, queued?: PendingRow): void {
    this.discarded.delete(records.canvas.id);
    if (queued) this.queued.push(queued);
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
    const queued = this.queued;
    this.queued = [];
    // Serialise writes so a slow transaction never lands after a newer one.
    if (this.uncached.has(next.canvas.id)) return this.chain;
    this.chain = this.chain.then(async () => {
      try {
        await writeCanvasChanges(
          this.options.database,
          this.written,
          next,
          this.options.now(),
          undefined,
          false,
          queued,
        );
        this.written = next;
        this.rowsHold = next;
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
    try {
      // On page hide: the API client sends it as keepalive when its body (often a small PATCH) fits the cap.
      const saved = await this.options.putDurable(document, { keepalive, mark: next.mark });
      if (saved) this.noteExactAfterSave(saved.records ?? next.records, saved.revision);
      if (saved) this.acknowledgeQueued(next.records.canvas.id, saved.mark ?? next.mark);
    } catch (error) {
      if (this.discarded.has(next.records.canvas.id)) return;
      this.durablePending ??= next;
      this.options.onError(error);
    }
  }

  /**
   * A save of `records` landed as `revision`. Queued on the chain, behind every row write already asked for and
   * ahead of any later one (which clears the mark): the rows are that record only if the last write stored exactly
   * these records. Not awaited by the save, so a cache fill under way never holds up the next durable save.
   */
  private noteExactAfterSave(records: CanvasRecords, revision: string): void {
    this.chain = this.chain.then(async () => {
      if (this.rowsHold !== records) return;
      try {
        await markRevisionExact(this.options.database, records.canvas.id, revision);
      } catch {
        // Only a faster next visit is lost: its first save goes whole, as without the mark.
      }
    });
  }

  /** The server holds the steps up to `mark`: dropped from what waits to be written, then from IndexedDB (on the chain). */
  private acknowledgeQueued(canvasId: string, mark: number): void {
    const held = (row: PendingRow) => row.canvasId === canvasId && row.position <= mark;
    this.queued = this.queued.filter((row) => !held(row));
    this.chain = this.chain.then(async () => {
      try {
        await acknowledgePending(this.options.database, canvasId, this.options.owner, mark);
      } catch {
        // Left in the queue: the next visit replays them and finds them in the record (never applied twice).
      }
    });
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
    this.queued = this.queued.filter((row) => row.canvasId !== canvasId);
    const inFlight = [...this.durableWrites];
    await Promise.allSettled([this.chain, ...inFlight]);
    return inFlight.length > 0;
  }

  async flush(keepalive = false): Promise<void> {
    await Promise.all([this.flushLocal(), this.flushDurable(keepalive)]);
    // The note a landed save queued (`noteExactAfterSave`), so a reopen right after reads it.
    await this.chain;
  }

  hasPending(): boolean {
    return this.pending !== null || this.durablePending !== null;
  }

  /** True while a change waits to be written or its durable record is on its way (remote refreshes wait). */
  isBusy(): boolean {
    return this.hasPending() || this.durableInFlight > 0 || this.filling > 0;
  }
}
