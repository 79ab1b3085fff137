import { createHash } from 'node:crypto';
import { appendFile, readFile, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError, type ChainHead } from '../../protocol/index.ts';
import { canonicalJson } from '../../src/core/index.ts';

/** One line of the anchors journal: a canvas's chain head as written, or the tombstone its deletion left. */
export interface Anchor {
  seq: number;
  at: number;
  canvasId: string;
  kind: 'head' | 'deleted';
  eventCount: number;
  lastEventHash: string;
  firstBadEvent: number | null;
  prevHash: string;
  hash: string;
}

/** What reading the whole journal found: where its chain first breaks, if it does. */
export type JournalVerdict = { status: 'intact'; lines: number } | { status: 'bad-line'; lines: number; index: number };

const FILE = 'anchors.jsonl';

function lineHash(body: Omit<Anchor, 'hash'>): string {
  return createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');
}

/**
 * `<canvases>/anchors.jsonl` (C10, issue 27.3): every chain head the store writes and a tombstone for every record it
 * deletes, in one append-only journal whose lines chain by hash. A head file deleted or rewritten beside its record,
 * or a record re-created under a deleted id, shows against it: a head file can be removed, the journal's line for it
 * cannot be without breaking the chain after it. A torn last line (a crash mid-append) is cut at the next append.
 */
export class AnchorsJournal {
  private loaded: Promise<{
    latest: Map<string, Anchor>;
    /** The newest tombstone of each id (a re-created record's latest line is its new head). */
    deleted: Map<string, Anchor>;
    seq: number;
    hash: string;
    /** The length to cut the file to before the next append (a torn last line), or null. */
    torn: number | null;
    /** The file's length as this journal last read or wrote it: another writer shows as a different one. */
    size: number;
    verdict: JournalVerdict;
  }> | null = null;

  constructor(
    private readonly directory: string,
    private readonly now: () => number = Date.now,
  ) {}

  private get path(): string {
    return join(this.directory, FILE);
  }

  private load() {
    return (this.loaded ??= this.read());
  }

  private async read() {
    let text = '';
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      // No journal yet: records from before it are anchored by their head files alone until their next write.
    }
    // Whatever follows the last newline is a torn append: never a line of the journal (the next append cuts it).
    const end = text.lastIndexOf('\n') + 1;
    const torn = end < text.length ? Buffer.byteLength(text.slice(0, end), 'utf8') : null;
    const latest = new Map<string, Anchor>();
    const deleted = new Map<string, Anchor>();
    let seq = 0;
    let hash = '';
    let verdict: JournalVerdict | null = null;
    const lines = text.slice(0, end).split('\n').slice(0, -1);
    for (const [index, line] of lines.entries()) {
      let anchor: Anchor | null;
      try {
        anchor = JSON.parse(line) as Anchor;
      } catch {
        anchor = null;
      }
      const { hash: claimed, ...body } = anchor ?? ({ hash: '' } as Anchor);
      if (!anchor || anchor.prevHash !== hash || anchor.seq !== seq + 1 || lineHash(body) !== claimed) {
        verdict = { status: 'bad-line', lines: lines.length, index };
        break;
      }
      latest.set(anchor.canvasId, anchor);
      if (anchor.kind === 'deleted') deleted.set(anchor.canvasId, anchor);
      seq = anchor.seq;
      hash = anchor.hash;
    }
    const size = Buffer.byteLength(text, 'utf8');
    return {
      latest,
      deleted,
      seq,
      hash,
      torn,
      size,
      verdict: verdict ?? { status: 'intact' as const, lines: lines.length },
    };
  }

  /** The newest line for `canvasId`, or null when the journal has none. */
  async latest(canvasId: string): Promise<Anchor | null> {
    return (await this.load()).latest.get(canvasId) ?? null;
  }

  /** The newest tombstone of `canvasId`, or null when no record under it was ever deleted. */
  async lastDeletion(canvasId: string): Promise<Anchor | null> {
    return (await this.load()).deleted.get(canvasId) ?? null;
  }

  /** Whether every line chains onto the one before it (read afresh from disk). */
  async verify(): Promise<JournalVerdict> {
    this.loaded = null;
    return (await this.load()).verdict;
  }

  /**
   * Refuses (`event-log-damaged`) when the journal's chain is broken: called before a record is written, so a
   * refused save writes nothing. Re-reads the journal when another writer (another process) appended meanwhile.
   */
  async assertWritable(): Promise<void> {
    const state = await this.current();
    if (state.verdict.status !== 'intact')
      throw new WeftError(
        'event-log-damaged',
        `The anchors journal of the canvas records (${this.path}) breaks at line ${state.verdict.index + 1}; it was left as it is. Run \`weft verify\` on a canvas for details.`,
        409,
      );
  }

  /** The loaded state, read again when the file's length is not the one this journal last saw. */
  private async current() {
    const state = await this.load();
    const size = await stat(this.path).then(
      (info) => info.size,
      () => 0,
    );
    if (size === state.size) return state;
    this.loaded = null;
    return this.load();
  }

  /**
   * Appends the head just written, or the tombstone of a deleted record; refused once the journal is damaged.
   * Appends run one at a time (saves of different canvases run at once), each onto the line before it.
   */
  append(kind: Anchor['kind'], head: ChainHead): Promise<Anchor> {
    const run = this.appending.then(() => this.appendNow(kind, head));
    this.appending = run.catch(() => undefined);
    return run;
  }

  private appending: Promise<unknown> = Promise.resolve();

  private async appendNow(kind: Anchor['kind'], head: ChainHead): Promise<Anchor> {
    await this.assertWritable();
    const state = await this.load();
    const body: Omit<Anchor, 'hash'> = {
      seq: state.seq + 1,
      at: this.now(),
      canvasId: head.canvasId,
      kind,
      eventCount: head.eventCount,
      lastEventHash: head.lastEventHash,
      firstBadEvent: head.firstBadEvent,
      prevHash: state.hash,
    };
    const anchor: Anchor = { ...body, hash: lineHash(body) };
    if (state.torn !== null) {
      await truncate(this.path, state.torn);
      state.size = state.torn;
      state.torn = null;
    }
    const line = `${JSON.stringify(anchor)}\n`;
    await appendFile(this.path, line, { mode: 0o600 });
    state.size += Buffer.byteLength(line, 'utf8');
    state.latest.set(anchor.canvasId, anchor);
    if (kind === 'deleted') state.deleted.set(anchor.canvasId, anchor);
    state.seq = anchor.seq;
    state.hash = anchor.hash;
    return anchor;
  }
}

/**
 * What a stored log and its head file disagree with the journal on, or null: a head file gone while the journal
 * holds one, or a log shorter than (or not extending) the journal's head. A journal lagging the head by the last
 * write (a crash between the two) still agrees: the log extends it.
 */
export function journalDifference(
  events: readonly { hash: string }[],
  head: Pick<ChainHead, 'eventCount' | 'lastEventHash'> | null,
  anchor: Anchor | null,
): string | null {
  if (!anchor || anchor.kind !== 'head') return null;
  if (!head) return `its chain head file is missing, while the anchors journal records ${anchor.eventCount} events`;
  if (events.length < anchor.eventCount || head.eventCount < anchor.eventCount)
    return `the anchors journal records ${anchor.eventCount} events, the head file ${head.eventCount} and the log ${events.length}`;
  if (anchor.eventCount > 0 && events[anchor.eventCount - 1]!.hash !== anchor.lastEventHash)
    return `event ${anchor.eventCount} is not the one the anchors journal records`;
  return null;
}
