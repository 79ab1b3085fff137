import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PUT_ASIDE_KINDS, type PutAsideKind, type PutAsides } from '../../src/core/index.ts';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { withFileLock } from './file-lock.ts';
import { KeyedQueue } from './keyed-queue.ts';

/** Where a tombstone came from: the canvas node or the dossier sentence that was archived, deleted or struck. */
export type PutAsideOrigin = { canvasId: string; nodeId: string } | { topicId: string; sentenceId: string };

/** One line of the put-aside log: a tombstone recorded, or one lifted by a restore (both kept: the log is the record). */
export interface PutAsideEvent {
  rev: number;
  op: 'put-aside' | 'restored';
  key: string;
  kind: PutAsideKind;
  /** Why: `archived`, `deleted` (a node or a whole canvas), `struck` (a dossier sentence); a restore says why it returned. */
  reason: string;
  at: number;
  origin: PutAsideOrigin | null;
  /**
   * The words, cut short, when no other record keeps them: a struck dossier sentence's (the "Put aside" page shows
   * it). A canvas turn's words stay in its canvas record only, so deleting a node leaves no copy here. A restore
   * removes them from every line no longer in force: once restored, the log keeps no copy of the words.
   */
  excerpt?: string;
}
export type PutAsideChange = Omit<PutAsideEvent, 'rev'>;

export interface PutAsideStoreOptions {
  /**
   * Given every line before it is written, inside the store's queue: memory's hash-chained journal records each
   * put-aside and restore through it. The journal first, so a failure writes no line (a retry journals it then),
   * and a crash between the two leaves an event for a line not written, never a line without its event.
   */
  journal?: (events: readonly PutAsideEvent[]) => Promise<void>;
  /** Told of every line once written, before `append` resolves (the server tells the page to read again). */
  onWritten?: (events: readonly PutAsideEvent[]) => void;
  /** For the rewrite a restore makes (tests inject failures). */
  fileSystem?: AtomicFileSystem;
}

/** The put-aside log of a Weft home: `$WEFT_HOME/memory/put-asides.jsonl`. */
export function putAsidePath(home: string): string {
  return join(home, 'memory', 'put-asides.jsonl');
}

/**
 * The lock every process takes to write the log (`$WEFT_HOME/memory/put-asides.lock`): a restore reads the log and
 * replaces it whole, so an append from another process between the two (an import, the CLI striking a sentence, a
 * second server) would be lost without it, and its words would come back into recall.
 */
export function putAsideLockPath(home: string): string {
  return join(home, 'memory', 'put-asides.lock');
}

/** What a log replays to: the tombstones in force by key, the last revision, and how far the log was read. */
interface Replayed {
  /** The file's inode: a restore replaces the file, so a process holding the old one replays the new from the start. */
  ino: number;
  size: number;
  mtimeMs: number;
  offset: number;
  revision: number;
  inForce: Map<string, PutAsideEvent>;
  keys: Set<string>;
}

/** Replayed logs by path, extended by what was appended since (a read path asks once per request). */
const replayedByPath = new Map<string, Replayed>();

const KINDS: ReadonlySet<string> = new Set(PUT_ASIDE_KINDS);

/**
 * Whether a parsed line is a whole event (checked by hand: a 100,000-line log is replayed in a process's first read,
 * and a schema library per line costs several times the JSON parse).
 */
function isEvent(value: unknown): value is PutAsideEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    Number.isInteger(event.rev) &&
    (event.op === 'put-aside' || event.op === 'restored') &&
    typeof event.key === 'string' &&
    typeof event.kind === 'string' &&
    KINDS.has(event.kind) &&
    typeof event.reason === 'string' &&
    typeof event.at === 'number' &&
    (event.origin === null || (typeof event.origin === 'object' && !Array.isArray(event.origin))) &&
    (event.excerpt === undefined || typeof event.excerpt === 'string')
  );
}

function replayInto(state: Replayed, text: string): void {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let event: PutAsideEvent;
    try {
      event = JSON.parse(line) as PutAsideEvent;
    } catch {
      continue; // A torn line (a crash mid-append) is skipped; every whole line before and after still counts.
    }
    if (!isEvent(event)) continue;
    state.revision = Math.max(state.revision, event.rev);
    if (event.op === 'put-aside') {
      state.inForce.set(event.key, event);
      state.keys.add(event.key);
    } else {
      state.inForce.delete(event.key);
      state.keys.delete(event.key);
    }
  }
}

/**
 * The log at `path` replayed, synchronously (the read paths that consult it are synchronous): served from memory
 * while the file is unchanged, and only the bytes appended since are read when it grew. A missing file is an empty log.
 */
function replayed(path: string): Replayed {
  let stats: { ino: number; size: number; mtimeMs: number };
  try {
    stats = statSync(path);
  } catch {
    return { ino: 0, size: 0, mtimeMs: 0, offset: 0, revision: 0, inForce: new Map(), keys: new Set() };
  }
  let state = replayedByPath.get(path);
  if (state && state.ino === stats.ino && state.size === stats.size && state.mtimeMs === stats.mtimeMs) return state;
  if (!state || state.ino !== stats.ino || stats.size < state.offset) {
    state = { ino: stats.ino, size: 0, mtimeMs: 0, offset: 0, revision: 0, inForce: new Map(), keys: new Set() };
  }
  const length = stats.size - state.offset;
  const buffer = Buffer.alloc(length);
  const descriptor = openSync(path, 'r');
  try {
    let read = 0;
    while (read < length) {
      const count = readSync(descriptor, buffer, read, length - read, state.offset + read);
      if (count === 0) break;
      read += count;
    }
  } finally {
    closeSync(descriptor);
  }
  // Only whole lines are taken; a line still being written is read the next time.
  const end = buffer.lastIndexOf(0x0a) + 1;
  replayInto(state, buffer.subarray(0, end).toString('utf8'));
  state.offset += end;
  state.size = stats.size;
  state.mtimeMs = stats.mtimeMs;
  replayedByPath.set(path, state);
  return state;
}

/** The keys of every tombstone in force in `home` (core's `isPutAside` checks content against them). */
export function readPutAsides(home: string): PutAsides {
  return replayed(putAsidePath(home)).keys;
}

/**
 * One store of tombstones per Weft home, keyed on content (core's `contentKey`), each with its kind, reason, time and
 * origin. JSON lines, each carrying its revision; writes are serialized in this process (the queue) and across
 * processes (`putAsideLockPath`), each flushed to disk before it resolves. A put-aside is one append of whole lines;
 * a restore adds a `restored` line (the log keeps the history) in an atomic rewrite that drops the lifted words. A
 * crash mid-append leaves a torn last line that is skipped, never a wrong tombstone.
 */
export class PutAsideStore {
  private readonly queue = new KeyedQueue();
  readonly path: string;
  private readonly lockPath: string;

  constructor(
    home: string,
    private readonly options: PutAsideStoreOptions = {},
  ) {
    this.path = putAsidePath(home);
    this.lockPath = putAsideLockPath(home);
  }

  keys(): PutAsides {
    return replayed(this.path).keys;
  }

  /** The tombstones in force, newest first. */
  inForce(): PutAsideEvent[] {
    return [...replayed(this.path).inForce.values()].sort((a, b) => b.rev - a.rev);
  }

  revision(): number {
    return replayed(this.path).revision;
  }

  /** The tombstone in force under `key`, if any. */
  tombstone(key: string): PutAsideEvent | undefined {
    return replayed(this.path).inForce.get(key);
  }

  /**
   * Appends `changes` in order, skipping a put-aside of a key already in force and a restore of one that is not
   * (so the log records what changed). Returns the events written.
   */
  append(changes: readonly PutAsideChange[]): Promise<PutAsideEvent[]> {
    if (changes.length === 0) return Promise.resolve([]);
    return this.queue.run('log', async () => {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      return withFileLock(this.lockPath, () => this.write(changes), {
        busyMessage: 'Another Weft process is writing the put-aside log; nothing was put aside or restored.',
      });
    });
  }

  /** The append itself, under the queue and the lock: replayed afresh, as another process may have written. */
  private async write(changes: readonly PutAsideChange[]): Promise<PutAsideEvent[]> {
    const state = replayed(this.path);
    const inForce = new Set(state.keys);
    let revision = state.revision;
    const written: PutAsideEvent[] = [];
    for (const change of changes) {
      if ((change.op === 'put-aside') === inForce.has(change.key)) continue;
      if (change.op === 'put-aside') inForce.add(change.key);
      else inForce.delete(change.key);
      written.push({ rev: ++revision, ...change });
    }
    if (written.length === 0) return [];
    await this.options.journal?.(written);
    if (written.some((event) => event.op === 'restored')) {
      // The revisions of the tombstones in force once written: only their lines may keep words.
      const inForceRevs = new Map([...state.inForce].map(([key, event]) => [key, event.rev]));
      for (const event of written)
        if (event.op === 'put-aside') inForceRevs.set(event.key, event.rev);
        else inForceRevs.delete(event.key);
      await this.rewriteWith(written, new Set(inForceRevs.values()));
    } else await this.appendLines(written);
    this.options.onWritten?.(written);
    return written;
  }

  /** One write of whole lines at the end of the log, flushed to disk. */
  private async appendLines(events: readonly PutAsideEvent[]): Promise<void> {
    const handle = await open(this.path, 'a+', 0o600);
    try {
      const { size } = await handle.stat();
      // A torn last line from a crash is closed off first, so it stays one skipped line.
      let lead = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) lead = '\n';
      }
      await handle.appendFile(lead + events.map((event) => JSON.stringify(event)).join('\n') + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /**
   * The log with `events` added and the excerpt of every line not in force (`inForceRevs`) dropped, replaced in one
   * atomic step: a restore and the removal of the words it lifts are written together or not at all.
   */
  private async rewriteWith(events: readonly PutAsideEvent[], inForceRevs: ReadonlySet<number>): Promise<void> {
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const kept = text.split('\n').filter((line) => line.trim() !== '');
    const lines = kept.map((line) => {
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        return line; // A torn line stays as it was: still one skipped line.
      }
      if (!isEvent(event) || event.excerpt === undefined || inForceRevs.has(event.rev)) return line;
      const { excerpt: _dropped, ...rest } = event;
      return JSON.stringify(rest);
    });
    const all = [...lines, ...events.map((event) => JSON.stringify(event))];
    await writeFileAtomic(this.path, all.join('\n') + '\n', { mode: 0o600, fileSystem: this.options.fileSystem });
    replayedByPath.delete(this.path);
  }
}
