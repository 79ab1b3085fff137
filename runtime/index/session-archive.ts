import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip, gzip } from 'node:zlib';
import { Fence, readSessionFile, type ReadSessionResult } from '../atlas/index.ts';
import { IndexError } from './index-error.ts';
import { ReadBuffers } from './read-buffers.ts';
import { ensurePrivateDirectory, realPathOfNearest } from '../fs/index.ts';

/** What the archive knows of one kept session file (`<hash>.json` beside `<hash>.jsonl.gz`). */
export interface ArchiveEntry {
  /** The session file's path as the index knows it. */
  path: string;
  runner: string;
  /** Bytes of the source kept (complete lines only, like the index's `bytes_read`). */
  bytes: number;
  /** Length of the gzip file that holds them: anything after it is a torn append and is cut off. */
  compressedBytes: number;
  /**
   * SHA-256 (hex) of those `bytes` of the source, hashed while they were copied. Absent in entries written by
   * Weft before it kept hashes: such a copy is "unverified" until it is copied again.
   */
  sha256?: string;
  archivedAt: number;
}

export const ARCHIVE_RUNNERS = ['claude-code', 'codex', 'pi'] as const;

/** Fast over small: a copy is made of every byte indexed, and index time is what a person waits for. */
const GZIP_LEVEL = 1;
/** Up to this much is read and compressed in one piece; more is streamed. */
const WHOLE_READ_BYTES = 16 * 1024 * 1024;
const gzipAsync = promisify(gzip);

/**
 * Compressed copies of the session files the index read, under `$WEFT_HOME/archive/<runner>/` (0700
 * directories, 0600 files), so a session whose file the agent deleted stays readable. A file that grew is
 * appended as another gzip member (one gzip stream may hold many); a file rewritten is copied again whole.
 * Sources are opened read-only through the fence; nothing is written under a root.
 */
export class SessionArchive {
  readonly directory: string;
  private readonly fence: Fence;
  /** Most session files fit one of these; a few are kept for the next reads (6 MiB while idle). */
  private readonly buffers = new ReadBuffers(2 * 1024 * 1024, 3);
  private checked = false;

  constructor(
    weftHome: string,
    private readonly roots: readonly string[],
    private readonly now: () => number,
    /** Up to this much is read and compressed in one piece, more is streamed (lowered by the kill -9 trial). */
    private readonly wholeReadBytes = WHOLE_READ_BYTES,
  ) {
    this.directory = join(weftHome, 'archive');
    this.fence = new Fence(roots.length > 0 ? roots : [weftHome]);
  }

  /** The entry kept for this session file, if any. */
  entry(path: string, runner?: string | null): ArchiveEntry | null {
    for (const candidate of runner ? [runner] : ARCHIVE_RUNNERS) {
      const meta = this.metaPath(candidate, path);
      if (!existsSync(meta)) continue;
      try {
        const entry = JSON.parse(readFileSync(meta, 'utf8')) as ArchiveEntry;
        if (entry.path === path) return entry;
      } catch {
        // A torn entry reads as none: the next read of the source writes it again.
      }
    }
    return null;
  }

  /** Whether a copy of this session file is kept (one stat: the stat pass asks for every vanished file). */
  has(path: string, runner: string): boolean {
    return existsSync(this.dataPath(runner, path));
  }

  /** Whether this runner's folder exists (one stat per update). */
  holds(runner: string): boolean {
    return existsSync(join(this.directory, runner));
  }

  /** Every kept entry (a fresh index reads sessions whose source is gone from here). */
  list(): ArchiveEntry[] {
    const entries: ArchiveEntry[] = [];
    for (const runner of ARCHIVE_RUNNERS) {
      let names: string[];
      try {
        names = readdirSync(join(this.directory, runner));
      } catch {
        continue;
      }
      for (const name of names.filter((candidate) => candidate.endsWith('.json'))) {
        try {
          const entry = JSON.parse(readFileSync(join(this.directory, runner, name), 'utf8')) as ArchiveEntry;
          if (typeof entry.path === 'string' && existsSync(this.dataPath(runner, entry.path))) entries.push(entry);
        } catch {
          // Torn: skipped.
        }
      }
    }
    return entries;
  }

  /**
   * Keeps `[0, bytes)` of the session file: only the new part when `[0, from)` is already kept (the file grew),
   * else all of it again.
   */
  async keep(path: string, runner: string, bytes: number, from: number): Promise<void> {
    this.ensureOutsideRoots();
    const previous = from > 0 ? this.entry(path, runner) : null;
    if (previous !== null && previous.bytes === bytes) return;
    const data = this.dataPath(runner, path);
    ensurePrivateDirectory(dirname(data));
    // The hash covers every byte kept: an append first hashes what the copy already holds (read back from the
    // copy, never a second read of the source); a copy that no longer matches its entry is copied again whole.
    const kept =
      previous !== null && previous.bytes === from && from <= bytes ? await hashOfCopy(data, previous) : null;
    const appending = kept !== null;
    const hash = kept ?? createHash('sha256');
    const { handle } = await this.fence.open(path);
    let compressedBytes: number;
    try {
      const start = appending ? from : 0;
      const length = bytes - start;
      // Most session files are small: one read and one gzip call on the thread pool beat a stream's many
      // chunks. A large one streams, so memory stays bounded.
      const compress = async (target: string, flags: 'a' | 'w'): Promise<void> => {
        if (length <= this.wholeReadBytes) {
          const buffer = this.buffers.take(length);
          try {
            let filled = 0;
            while (filled < length) {
              const { bytesRead } = await handle.read(buffer, filled, length - filled, start + filled);
              if (bytesRead === 0) break;
              filled += bytesRead;
            }
            hash.update(buffer.subarray(0, filled));
            await writeFile(target, await gzipAsync(buffer.subarray(0, filled), { level: GZIP_LEVEL }), {
              flag: flags,
              mode: 0o600,
            });
          } finally {
            // Only once the gzip call (on the thread pool) has finished reading it.
            this.buffers.release(buffer);
          }
          return;
        }
        const source = handle.createReadStream({ start, end: bytes - 1, autoClose: false, highWaterMark: 1 << 20 });
        await pipeline(
          source,
          hashing(hash),
          createGzip({ level: GZIP_LEVEL }),
          createWriteStream(target, { flags, mode: 0o600 }),
        );
      };
      if (appending) {
        // A torn earlier append would corrupt the stream: cut back to what the entry vouches for.
        await truncate(data, previous!.compressedBytes);
        await compress(data, 'a');
        compressedBytes = statSync(data).size;
      } else {
        const temporary = `${data}.${process.pid}.tmp`;
        await compress(temporary, 'w');
        compressedBytes = statSync(temporary).size;
        await rename(temporary, data);
      }
    } finally {
      await handle.close();
    }
    const sha256 = hash.digest('hex');
    const entry: ArchiveEntry = { path, runner, bytes, compressedBytes, sha256, archivedAt: this.now() };
    const meta = this.metaPath(runner, path);
    await writeFile(`${meta}.tmp`, JSON.stringify(entry), { mode: 0o600 });
    await rename(`${meta}.tmp`, meta);
  }

  /**
   * Reads a kept session as the atlas would read its source: the copy is unpacked (0600) at the same path
   * below a private scratch folder, so the adapters see the file and folder names they take ids from.
   */
  async readSession(entry: ArchiveEntry): Promise<ReadSessionResult> {
    const data = this.dataPath(entry.runner, entry.path);
    if (!existsSync(data)) throw new IndexError('archive-missing', `no archived copy of ${entry.path}`);
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const scratch = await mkdtemp(join(this.directory, '.restore-'));
    try {
      const restored = join(scratch, resolve(entry.path));
      await mkdir(dirname(restored), { recursive: true, mode: 0o700 });
      await pipeline(
        createReadStream(data, { start: 0, end: Math.max(0, entry.compressedBytes - 1) }),
        createGunzip(),
        createWriteStream(restored, { mode: 0o600 }),
      );
      const read = await readSessionFile(restored, { fence: new Fence([scratch]), linkParent: false });
      const prefix = join(scratch, sep);
      for (const session of read.sessions) {
        if (session.sourcePath.startsWith(prefix)) session.sourcePath = sep + session.sourcePath.slice(prefix.length);
      }
      return { ...read, path: entry.path };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Drops the copies of one runner, or all of them. */
  drop(runner?: string): void {
    rmSync(runner ? join(this.directory, runner) : this.directory, { recursive: true, force: true });
  }

  /** Drops the copy of one file. */
  remove(path: string, runner: string): void {
    rmSync(this.dataPath(runner, path), { force: true });
    rmSync(this.metaPath(runner, path), { force: true });
  }

  /** Copies kept, their compressed size, and how many have no hash yet (written by older Weft). */
  usage(): { sessions: number; bytes: number; sourceBytes: number; unhashed: number } {
    let bytes = 0;
    let sourceBytes = 0;
    let unhashed = 0;
    const entries = this.list();
    for (const entry of entries) {
      bytes += entry.compressedBytes;
      sourceBytes += entry.bytes;
      if (!entry.sha256) unhashed += 1;
    }
    return { sessions: entries.length, bytes, sourceBytes, unhashed };
  }

  /** The gzip file of a kept copy (its first `compressedBytes` hold the entry's bytes). */
  copyPath(entry: ArchiveEntry): string {
    return this.dataPath(entry.runner, entry.path);
  }

  /**
   * The archive must never land under a session root, also not through a symlinked `WEFT_HOME`: compare
   * real paths (of the nearest folder that exists) before the first write.
   */
  private ensureOutsideRoots(): void {
    if (this.checked) return;
    const real = realPathOfNearest(this.directory);
    for (const root of this.roots) {
      const realRoot = realPathOfNearest(resolve(root));
      if (real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep))
        throw new IndexError(
          'weft-home-unsafe',
          `the archive ${this.directory} would be inside the session root ${root}`,
        );
    }
    ensurePrivateDirectory(this.directory);
    this.checked = true;
  }

  private dataPath(runner: string, path: string): string {
    return join(this.directory, runner, `${nameOf(path)}.jsonl.gz`);
  }

  private metaPath(runner: string, path: string): string {
    return join(this.directory, runner, `${nameOf(path)}.json`);
  }
}

/** A pass-through stream that feeds every chunk to `hash` on its way; `bytes` counts what went through. */
export class HashingStream extends Transform {
  bytes = 0;

  constructor(private readonly hash: Hash) {
    super();
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

export const hashing = (hash: Hash): HashingStream => new HashingStream(hash);

/**
 * The hash of the bytes the copy holds (its first `compressedBytes`, unpacked), to go on hashing an append with;
 * null when they are not the entry's `bytes` (or not its `sha256`, when it has one) or the copy cannot be read:
 * then it is copied again whole.
 */
async function hashOfCopy(data: string, entry: ArchiveEntry): Promise<Hash | null> {
  const { hash, bytes, error } = await unpackedHash(data, entry.compressedBytes);
  if (error || bytes !== entry.bytes) return null;
  if (entry.sha256 !== undefined && hash.copy().digest('hex') !== entry.sha256) return null;
  return hash;
}

/**
 * The first `compressedBytes` of copy `data` unpacked and hashed: the hash so far, how many bytes came out, and why
 * unpacking stopped short (null when it did not). The archive's appends and `weft archive verify` both read a copy so.
 */
export async function unpackedHash(
  data: string,
  compressedBytes: number,
): Promise<{ hash: Hash; bytes: number; error: Error | null }> {
  const hash = createHash('sha256');
  const counter = hashing(hash);
  try {
    await pipeline(
      createReadStream(data, { start: 0, end: Math.max(0, compressedBytes - 1) }),
      createGunzip(),
      counter,
      new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    );
  } catch (error) {
    return { hash, bytes: counter.bytes, error: error as Error };
  }
  return { hash, bytes: counter.bytes, error: null };
}

function nameOf(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 40);
}
