import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexDatabase } from './open-index-database.ts';
import type { ArchiveEntry } from './session-archive.ts';
import type { CatalogFile, MemoryFile, SessionCatalog } from './session-catalog.ts';
import { withinRoots } from './within-roots.ts';

export type SourceKind = 'session' | 'memory' | 'canvas';

/** A `sources` row as the stat pass compares it with the file on disk. */
export interface SourceRow {
  id: number;
  path: string;
  kind: SourceKind;
  runner: string | null;
  size: number;
  mtimeMs: number;
  bytesRead: number;
  /** Whether an accumulator state is saved (the state itself is loaded only for a file that grew). */
  hasState: number;
  /** Bytes of the file kept in the archive. */
  archivedBytes: number;
  /** When the file was found gone (its rows kept from the archive), else null. */
  deletedAt: number | null;
}

/** A file the stat pass found new or moved: it is read, and its rows written. */
export interface Planned {
  file: CatalogFile & { text?: string };
  kind: SourceKind;
  runner: string | null;
  previous: SourceRow | undefined;
  /** Read from the archive: the source file is gone (a fresh index of sessions the agent deleted). */
  archived?: ArchiveEntry;
  /** Unchanged and indexed, but not (fully) in the archive yet: only a copy is made. */
  archiveOnly?: boolean;
}

export interface SourceListing {
  planned: Planned[];
  /** Known sources no longer listed. */
  vanished: SourceRow[];
  /** Files the stat pass saw (sessions, memory files, canvas records). */
  seen: number;
}

/**
 * The stat pass: every source the catalog lists (and the canvas records) against the `sources` rows.
 * Only files whose kind, size or mtime moved are planned; known files not listed have vanished.
 */
export async function listSources(
  database: IndexDatabase,
  catalog: SessionCatalog,
  options: {
    canvasesDirectory: string;
    discoverMemory: boolean;
    /** Whether this runner's files are kept in the archive. */
    archives?: (runner: string | null) => boolean;
    /** Archived sessions, to read those whose source is gone and that the index does not hold. */
    archived?: readonly ArchiveEntry[];
  },
): Promise<SourceListing> {
  const known = new Map<string, SourceRow>();
  for (const row of database
    .prepare(
      `SELECT id, path, kind, runner, size, mtime_ms AS mtimeMs, bytes_read AS bytesRead,
         archived_bytes AS archivedBytes, deleted_at AS deletedAt,
         (SELECT count(*) FROM source_states WHERE source_id = sources.id) AS hasState FROM sources`,
    )
    .all() as SourceRow[]) {
    known.set(row.path, row);
  }
  const knownMemory = [...known.values()].filter((row) => row.kind === 'memory');
  const workingDirectories = options.discoverMemory
    ? (database
        .prepare("SELECT DISTINCT cwd FROM sessions WHERE cwd IS NOT NULL AND runner <> 'canvas'")
        .pluck()
        .all() as string[])
    : [];
  const [sessionFiles, memoryFiles, canvasFiles] = await Promise.all([
    catalog.listSessionFiles(),
    catalog
      .listMemoryFiles({ discover: options.discoverMemory, known: knownMemory, workingDirectories })
      // Discovery failing must not read as "every memory file vanished": keep what is known as it is.
      .catch(() =>
        knownMemory.map((row): MemoryFile => ({
          path: row.path,
          size: row.size,
          mtimeMs: row.mtimeMs,
          runner: row.runner,
        })),
      ),
    listCanvasFiles(options.canvasesDirectory),
  ]);

  const planned: Planned[] = [];
  const seen = new Set<string>();
  const consider = (file: CatalogFile, kind: SourceKind, runner: string | null) => {
    if (seen.has(file.path)) return;
    seen.add(file.path);
    const previous = known.get(file.path);
    const unchanged =
      previous &&
      previous.kind === kind &&
      previous.size === file.size &&
      previous.mtimeMs === file.mtimeMs &&
      previous.deletedAt === null;
    if (!unchanged) {
      planned.push({ file, kind, runner, previous });
    } else if (
      kind === 'session' &&
      previous.archivedBytes !== previous.bytesRead &&
      options.archives?.(previous.runner)
    ) {
      planned.push({ file, kind, runner: previous.runner, previous, archiveOnly: true });
    }
  };
  for (const file of sessionFiles) consider(file, 'session', null);
  for (const file of memoryFiles) consider(file, 'memory', file.runner);
  for (const file of canvasFiles) consider(file, 'canvas', 'canvas');
  const underRoots = withinRoots(catalog.roots);
  for (const entry of options.archived ?? []) {
    if (seen.has(entry.path) || known.has(entry.path) || !options.archives?.(entry.runner)) continue;
    // A copy of a file from a root no longer read stays in the archive but out of the index.
    if (!underRoots(entry.path)) continue;
    seen.add(entry.path);
    const file = { path: entry.path, size: entry.bytes, mtimeMs: entry.archivedAt };
    planned.push({ file, kind: 'session', runner: entry.runner, previous: undefined, archived: entry });
  }
  const vanished = [...known.values()].filter((row) => !seen.has(row.path));
  return { planned, vanished, seen: seen.size };
}

async function listCanvasFiles(directory: string): Promise<CatalogFile[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  const files: CatalogFile[] = [];
  for (const name of names.filter((candidate) => candidate.endsWith('.weft.json')).sort()) {
    const path = join(directory, name);
    try {
      const info = await stat(path);
      if (info.isFile()) files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
    } catch {
      // Gone between readdir and stat: the next pass will not see it either.
    }
  }
  return files;
}
