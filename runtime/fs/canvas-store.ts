import { createHash } from 'node:crypto';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  storedCanvasDocument,
  type CanvasDocument,
  CANVAS_ID_PATTERN,
  type CanvasSummary,
  type CanvasPatch,
  WeftError,
} from '../../protocol/index.ts';
import type { ChainHead, ChainVerdict } from '../../protocol/index.ts';
import { authorshipRewrite, othersText, verifyChain } from '../../src/core/index.ts';
import { nodeHashPort } from '../hash/index.ts';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { chainHeadOf, ChainHeadFiles, verdictAgainst } from './chain-head-files.ts';
import { AnchorsJournal, journalDifference } from './anchors-journal.ts';
import { AuthorshipHistory } from './authorship-history.ts';
import { assertEventPrefix, differenceFromHead } from './event-prefix.ts';
import { patchStoredCanvas } from './canvas-patch-write.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { ParsedCanvasCache } from './parsed-canvas-cache.ts';
import { parseIncoming, parseStored } from './parse-canvas-record.ts';
import type { PutAsideStore } from './put-aside-store.ts';
import { recordCanvasPutAsides } from './record-canvas-put-asides.ts';

const SUFFIX = '.weft.json';

export function assertCanvasId(id: string): void {
  if (!CANVAS_ID_PATTERN.test(id)) {
    throw new WeftError('invalid-id', 'Canvas ids are 1–100 letters, digits, "_" or "-".', 400);
  }
}

/** A save may not hand the person words they did not write, nor rewrite what a stored version was asked. */
function assertAuthorshipKept(
  id: string,
  stored: CanvasDocument['nodes'],
  incoming: CanvasDocument['nodes'],
  wroteBefore: (nodeId: string, text: string) => boolean,
): void {
  const rewrite = authorshipRewrite(stored, incoming, wroteBefore);
  if (rewrite)
    throw new WeftError(
      'authorship-rewrite',
      `Canvas "${id}" keeps who wrote what: ${rewrite}. Nothing was written.`,
      409,
    );
}

/** A record's revision: the SHA-256 of its stored bytes, so any change (even outside Weft) is a new revision. */
export function canvasRevision(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface CanvasStoreOptions {
  directory: string;
  fileSystem?: AtomicFileSystem;
  /** Parsed records kept per revision (default: a few canvases, 256 MB of stored text). */
  parsed?: ParsedCanvasCache;
  /** The clock the anchors journal stamps its lines with (tests inject one). */
  now?: () => number;
  /** Issue 29.2: where a save that archives, deletes or restores a turn records its tombstone (absent: nowhere). */
  putAsides?: PutAsideStore;
}

export interface StoredCanvas {
  document: CanvasDocument;
  updatedAt: number;
  revision: string;
}

export interface CanvasVerification {
  verdict: ChainVerdict;
  head: ChainHead | null;
  /** When a record under this id was deleted before this one was created (a new record, with a log of its own). */
  recreatedAfter: { deletedAt: number; eventCount: number } | null;
}

/**
 * The durable canvas records (C26) and the guardian of their event logs (C10): `<dir>/<id>.weft.json`, one file
 * per canvas, replaced atomically, with its chain head in `<id>.head.json`. A write names the revision it was
 * based on (`revision-conflict` otherwise), keeps every stored event byte-identical as a prefix
 * (`event-log-rewrite` otherwise) and is refused on a record whose log no longer matches its head
 * (`event-log-damaged`); a refused write writes nothing. Writes to one canvas are queued, never interleaved.
 */
export class CanvasStore {
  private readonly queue = new KeyedQueue();
  private readonly heads: ChainHeadFiles;
  /** Every head written and every deletion, hash-chained: a head file removed or rewritten shows against it. */
  readonly anchors: AnchorsJournal;
  /** Words a model or Weft wrote under ids since removed: a re-added id cannot hand them to the person. */
  private readonly authors: AuthorshipHistory;
  /** Listing summaries by id, reused while the file's mtime and size are unchanged (big canvases parse slowly). */
  private readonly summaries = new Map<string, { mtimeMs: number; size: number; summary: CanvasSummary }>();
  /** Each read still hashes the stored bytes; only an unchanged revision skips the parse and the schema check. */
  private readonly parsed: ParsedCanvasCache;

  constructor(private readonly options: CanvasStoreOptions) {
    this.heads = new ChainHeadFiles(options.directory, options.fileSystem);
    this.anchors = new AnchorsJournal(options.directory, options.now);
    this.authors = new AuthorshipHistory(options.directory);
    this.parsed = options.parsed ?? new ParsedCanvasCache();
  }

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

  async read(id: string): Promise<StoredCanvas> {
    const stored = await this.readText(id);
    if (stored === null) throw new WeftError('not-found', `No canvas record "${id}".`, 404);
    return { updatedAt: stored.updatedAt, revision: stored.revision, document: this.parseKept(id, stored) };
  }

  /** The stored text as a document, parsed once per revision. */
  private parseKept(id: string, stored: { text: string; revision: string }): CanvasDocument {
    const kept = this.parsed.get(id, stored.revision);
    if (kept) return kept;
    const document = parseStored(id, stored.text);
    this.parsed.set(id, stored.revision, document, stored.text.length);
    return document;
  }

  /** The stored text, its revision and time, or null when there is no record. */
  private async readText(id: string): Promise<{ text: string; updatedAt: number; revision: string } | null> {
    const path = this.pathOf(id);
    try {
      const [text, updatedAt] = await Promise.all([
        readFile(path, 'utf8'),
        stat(path).then((info) => Math.floor(info.mtimeMs)),
      ]);
      return { text, updatedAt, revision: canvasRevision(text) };
    } catch {
      return null;
    }
  }

  /**
   * Validate and write atomically. `baseRevision` is the revision the writer's copy came from (null: "this
   * canvas is new"); a stale one is refused, so a save from an old copy never deletes what was saved since.
   */
  async write(id: string, document: unknown, options: { baseRevision: string | null }): Promise<StoredCanvas> {
    const path = this.pathOf(id);
    const parsed = parseIncoming(id, document);
    // Stored as version 3 writes it: events without the prevHash their order gives.
    const text = JSON.stringify(storedCanvasDocument(parsed));
    return this.queue.run(id, async () => {
      const current = await this.readText(id);
      if ((current?.revision ?? null) !== options.baseRevision) {
        throw new WeftError(
          'revision-conflict',
          current
            ? `Canvas "${id}" changed since this copy was read (it is at revision ${current.revision.slice(0, 12)}); read it again and reapply the changes.`
            : `Canvas "${id}" has no stored record to be based on; save it as a new record.`,
          409,
        );
      }
      // A damaged journal refuses the save before anything is written.
      await this.anchors.assertWritable();
      let firstBadEvent: number | null;
      const anchor = await this.anchors.latest(id);
      if (current) {
        const stored = this.parseKept(id, current);
        const head = await this.heads.read(id);
        const difference =
          (head ? differenceFromHead(stored.events, head) : null) ?? journalDifference(stored.events, head, anchor);
        if (difference) throw damaged(id, difference);
        assertEventPrefix(id, stored.events, parsed.events);
        assertAuthorshipKept(id, stored.nodes, parsed.nodes, await this.authors.wroteBefore(id));
        // A record from before chain heads were kept: whatever its log holds now is where the guard starts.
        firstBadEvent = head ? head.firstBadEvent : verifyChain(stored.events, undefined, nodeHashPort);
        // Retired before the write: a crash after it leaves one retirement too many, never one missing.
        await this.authors.retireRemoved(id, stored.nodes, parsed.nodes);
      } else {
        // A record the journal holds a head for, whose file is gone: never silently started afresh.
        if (anchor?.kind === 'head')
          throw damaged(id, `its record is gone while the anchors journal records ${anchor.eventCount} events`);
        // A record re-created under a deleted id keeps who wrote what under its ids before.
        assertAuthorshipKept(id, [], parsed.nodes, await this.authors.wroteBefore(id));
        // A new record may hold a broken log (an imported file, whose `import` event records the break).
        firstBadEvent = verifyChain(parsed.events, undefined, nodeHashPort);
      }
      // Tombstones before the record: a crash between the two leaves one too many, never deleted words unmarked.
      await this.recordPutAsides(id, current ? this.parseKept(id, current) : null, parsed);
      await writeFileAtomic(path, text, { mode: 0o600, fileSystem: this.options.fileSystem });
      // The head is written after the record: a crash between the two leaves a head that lags, which still verifies.
      const head = chainHeadOf(id, parsed.events, firstBadEvent);
      await this.heads.write(head);
      await this.anchors.append('head', head);
      const updatedAt = Math.floor((await stat(path)).mtimeMs);
      const revision = canvasRevision(text);
      // What was written reads back as `parsed` (the stored form expands to the document it came from).
      this.parsed.set(id, revision, parsed, text.length);
      return { document: parsed, updatedAt, revision };
    });
  }

  /**
   * Applies the records that changed since `baseRevision` (`PATCH`): the same refusals as `write`, checked on the
   * changed records only (their schema, wire ends, the appended events chaining onto the stored last one).
   */
  async patch(id: string, patch: CanvasPatch, options: { baseRevision: string }): Promise<StoredCanvas> {
    const path = this.pathOf(id);
    return this.queue.run(id, async () => {
      const current = await this.readText(id);
      if (!current) throw new WeftError('not-found', `No canvas record "${id}".`, 404);
      if (current.revision !== options.baseRevision) {
        throw new WeftError(
          'revision-conflict',
          `Canvas "${id}" changed since this copy was read (it is at revision ${current.revision.slice(0, 12)}); read it again and reapply the changes.`,
          409,
        );
      }
      await this.anchors.assertWritable();
      const stored = this.parseKept(id, current);
      const head = await this.heads.read(id);
      const difference =
        (head ? differenceFromHead(stored.events, head) : null) ??
        journalDifference(stored.events, head, await this.anchors.latest(id));
      if (difference) throw damaged(id, difference);
      const next = patchStoredCanvas(id, stored, patch);
      // Only the records the patch puts can change: the rest are the stored ones.
      assertAuthorshipKept(id, stored.nodes, patch.put.nodes, await this.authors.wroteBefore(id));
      await this.authors.retireRemoved(id, stored.nodes, next.nodes);
      const text = JSON.stringify(storedCanvasDocument(next));
      const firstBadEvent = head ? head.firstBadEvent : verifyChain(stored.events, undefined, nodeHashPort);
      await this.recordPutAsides(id, stored, next);
      await writeFileAtomic(path, text, { mode: 0o600, fileSystem: this.options.fileSystem });
      const nextHead = chainHeadOf(id, next.events, firstBadEvent);
      await this.heads.write(nextHead);
      await this.anchors.append('head', nextHead);
      const updatedAt = Math.floor((await stat(path)).mtimeMs);
      const revision = canvasRevision(text);
      this.parsed.set(id, revision, next, text.length);
      return { document: next, updatedAt, revision };
    });
  }

  /**
   * The record's log checked against its chain head and the anchors journal: against the stronger of the two (the
   * journal's line, unless the head file is ahead of it by a write a crash cut short), then the head file against
   * the journal (`head-mismatch` when it was removed or rewritten).
   */
  async verify(id: string): Promise<CanvasVerification> {
    const { document } = await this.read(id);
    const events = document.events;
    const kept = await this.heads.read(id);
    const journal = await this.anchors.latest(id);
    const deletion = await this.anchors.lastDeletion(id);
    const recreatedAfter = deletion ? { deletedAt: deletion.at, eventCount: deletion.eventCount } : null;
    const stronger =
      journal?.kind === 'head' && (!kept || journal.eventCount > kept.eventCount)
        ? chainHeadOf(id, [], journal.firstBadEvent, journal)
        : kept;
    const verdict = verdictAgainst(events, stronger);
    // The journal's own chain too: a line altered or removed in it leaves no anchor to trust.
    const chain = await this.anchors.verify();
    const broken = chain.status === 'bad-line' ? `the anchors journal breaks at line ${chain.index + 1}` : null;
    const mismatch = verdict.status === 'intact' ? (broken ?? journalDifference(events, kept, journal)) : null;
    return {
      verdict: mismatch ? { status: 'head-mismatch', eventCount: events.length, detail: mismatch } : verdict,
      head: kept,
      recreatedAfter,
    };
  }

  /** `putAside: false`: a rollback of a record just stored (an import undone), whose turns are not put aside. */
  async delete(id: string, options: { putAside?: boolean } = {}): Promise<boolean> {
    const path = this.pathOf(id);
    this.summaries.delete(id);
    return this.queue.run(id, async () => {
      this.parsed.delete(id);
      const current = await this.readText(id);
      if (!current) return false;
      await this.anchors.assertWritable();
      // The head the tombstone keeps: the head file's, else the record's own (an unreadable record: none).
      let head: ChainHead | null = await this.heads.read(id).catch(() => null);
      let stored: CanvasDocument | null = null;
      try {
        stored = this.parseKept(id, current);
      } catch {
        // An unreadable record: nothing it says can be kept.
      }
      head ??= chainHeadOf(id, stored?.events ?? [], null);
      // What a model or Weft wrote under its ids outlives the record, so a re-created one cannot reassign it.
      if (stored) await this.authors.retire(id, stored.nodes);
      if (options.putAside !== false) await this.recordPutAsides(id, stored, null);
      try {
        await unlink(path);
      } catch {
        return false;
      }
      // After the unlink: a crash between the two leaves a journal whose head has no record, which refuses a new
      // record under this id (never a record that reads as new while the old one is still there).
      await this.anchors.append('deleted', head);
      await this.heads.remove(id);
      return true;
    });
  }

  private async recordPutAsides(id: string, previous: CanvasDocument | null, next: CanvasDocument | null) {
    if (this.options.putAsides)
      await recordCanvasPutAsides(this.options.putAsides, id, previous, next, (this.options.now ?? Date.now)());
  }

  /**
   * Words a model or Weft wrote on this canvas under any id — held by a node of the stored record now, or removed or
   * rewritten since (the authorship history): memory never takes them for the person's, whatever node claims them.
   */
  async othersWords(id: string): Promise<(text: string) => boolean> {
    const stored = await this.read(id).catch(() => null);
    const now = new Set(stored?.document.nodes.flatMap((node) => othersText(node) ?? []) ?? []);
    const before = await this.authors.wroteOnCanvas(id);
    return (text) => now.has(text) || before(text);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }
}

function damaged(id: string, difference: string): WeftError {
  return new WeftError(
    'event-log-damaged',
    `The stored event log of canvas "${id}" was changed outside Weft (${difference}, against its chain head); it is left as it is. Run \`weft verify ${id}\` for details, and import a copy to keep working.`,
    409,
  );
}
