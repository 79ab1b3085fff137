import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ARCHIVE_RUNNERS, unpackedHash, type ArchiveEntry } from './session-archive.ts';

/** The first copy that failed, and why. */
export interface BadCopy {
  path: string;
  runner: string;
  reason: string;
}

/** What one pass over the archive found (also kept as the archive's last verification). */
export interface ArchiveVerification {
  /** Copies read (entries with or without their data file). */
  copies: number;
  /** Bytes of the sources the copies hold, as re-read. */
  bytes: number;
  /** Copies written before Weft kept hashes: their sizes check, their bytes cannot be proven. */
  unverified: number;
  bad: number;
  firstBad: BadCopy | null;
  verifiedAt: number;
}

/** Where the last verification is kept: beside the runners' folders, so dropping the archive drops it too. */
export function lastVerificationPath(archiveDirectory: string): string {
  return join(archiveDirectory, 'last-verification.json');
}

/** The last verification written by `verifyArchive`, or null (never run, or the archive dropped since). */
export function readLastVerification(archiveDirectory: string): ArchiveVerification | null {
  try {
    return JSON.parse(readFileSync(lastVerificationPath(archiveDirectory), 'utf8')) as ArchiveVerification;
  } catch {
    return null;
  }
}

/**
 * Re-reads every copy under `archiveDirectory` (runner by runner, entries in path order): unpacks the first
 * `compressedBytes` of its gzip file, counts and hashes the bytes and compares both with the entry. A copy whose
 * entry has no hash (older Weft) is unverified, not bad, when its sizes hold. Bytes after `compressedBytes` are a
 * torn append the next copy cuts off, so they are not read. The result is kept as the last verification.
 */
export async function verifyArchive(
  archiveDirectory: string,
  now: () => number = Date.now,
): Promise<ArchiveVerification> {
  const result: ArchiveVerification = { copies: 0, bytes: 0, unverified: 0, bad: 0, firstBad: null, verifiedAt: 0 };
  for (const runner of ARCHIVE_RUNNERS) {
    const folder = join(archiveDirectory, runner);
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith('.json'));
    } catch {
      continue;
    }
    const copies = names.map((name) => readCopy(folder, name, runner));
    copies.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const copy of copies) {
      result.copies += 1;
      const verdict = copy.entry ? await checkCopy(copy.data, copy.entry) : { bytes: 0, problem: copy.problem! };
      result.bytes += verdict.bytes;
      if (verdict.problem === null && !copy.entry!.sha256) result.unverified += 1;
      if (verdict.problem === null) continue;
      result.bad += 1;
      result.firstBad ??= { path: copy.path, runner, reason: verdict.problem };
    }
  }
  result.verifiedAt = now();
  const target = lastVerificationPath(archiveDirectory);
  try {
    await writeFile(`${target}.tmp`, JSON.stringify(result), { mode: 0o600 });
    await rename(`${target}.tmp`, target);
  } catch {
    // No archive folder (nothing kept yet): there is nothing to remember.
  }
  return result;
}

interface CopyOnDisk {
  path: string;
  data: string;
  entry: ArchiveEntry | null;
  problem: string | null;
}

function readCopy(folder: string, name: string, runner: string): CopyOnDisk {
  const data = join(folder, `${name.slice(0, -'.json'.length)}.jsonl.gz`);
  try {
    const entry = JSON.parse(readFileSync(join(folder, name), 'utf8')) as ArchiveEntry;
    if (typeof entry.path !== 'string' || !Number.isInteger(entry.bytes) || !Number.isInteger(entry.compressedBytes))
      return { path: `${runner}/${name}`, data, entry: null, problem: 'its entry is malformed' };
    return { path: entry.path, data, entry, problem: null };
  } catch {
    // Entries are written whole (temporary file, then rename): one that does not parse was damaged later.
    return { path: `${runner}/${name}`, data, entry: null, problem: 'its entry is not readable JSON' };
  }
}

/** The bytes a copy holds, and what is wrong with it (null: intact, or unverified when it has no hash). */
async function checkCopy(data: string, entry: ArchiveEntry): Promise<{ bytes: number; problem: string | null }> {
  let size: number;
  try {
    size = statSync(data).size;
  } catch {
    return { bytes: 0, problem: 'its copy is missing' };
  }
  if (size < entry.compressedBytes)
    return { bytes: 0, problem: `its copy is ${size} bytes, its entry says ${entry.compressedBytes}` };
  const { hash, bytes, error } = await unpackedHash(data, entry.compressedBytes);
  if (error) return { bytes, problem: `its copy does not unpack (${error.message})` };
  if (bytes !== entry.bytes) return { bytes, problem: `its copy holds ${bytes} bytes, its entry says ${entry.bytes}` };
  if (entry.sha256 && hash.digest('hex') !== entry.sha256)
    return { bytes, problem: 'its bytes do not hash to the SHA-256 its entry records' };
  return { bytes, problem: null };
}
