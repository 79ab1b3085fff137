/**
 * Keeps `docs/architecture.md` and `docs/spec.md` true to the repository: every folder in the map's folder table
 * exists, every top-level folder is in it, every path the map names from the repository root exists, and every
 * clause id the code cites (`C9`) is defined in the spec; the renderer's table says what `RENDERER_ZONES` enforces. Run by `scripts/check-docs.test.ts`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { rendererMapProblems } from './check-renderer-map.ts';
import { RENDERER_PLUMBING, RENDERER_PREFIX, RENDERER_ZONES } from './layer-rules.ts';

export const ARCHITECTURE = 'docs/architecture.md';
export const SPEC = 'docs/spec.md';
/** The map's table of folders: the heading it sits under. */
export const FOLDER_TABLE_HEADING = '## Folders and what each may import';

const CLAUSE = /\bC([0-9]+)\b/g;
const CITING_FILE = /\.(ts|tsx|mjs)$/;
/** Copied from other projects (real sessions, memory files): their text is not ours and cites nothing. */
const NOT_OURS = /^tests\/fixtures\//;

export interface Repository {
  root: string;
  /** Paths relative to `root`, as git tracks them. */
  files: string[];
}

/** The repository at `root` as git tracks it (committed or staged, plus untracked files not ignored). */
export function repositoryAt(root: string): Repository {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return { root, files: out.split('\n').filter((file) => file && existsSync(path.join(root, file))) };
}

/** Folders at the top of the repository that hold at least one tracked file. */
export function topLevelFolders(files: readonly string[]): string[] {
  return [...new Set(files.filter((file) => file.includes('/')).map((file) => file.split('/')[0]!))].sort();
}

/** The first cell of each row of the folder table, as written (`src/core/`). */
export function tableFolders(architecture: string): string[] {
  const start = architecture.indexOf(FOLDER_TABLE_HEADING);
  if (start < 0) return [];
  const section = architecture.slice(start + FOLDER_TABLE_HEADING.length).split(/\n## /)[0]!;
  const folders: string[] = [];
  for (const line of section.split('\n')) {
    const cell = /^\|\s*`([^`]+)`\s*\|/.exec(line);
    if (cell) folders.push(cell[1]!);
  }
  return folders;
}

/** Backticked paths that start at a top-level folder (`src/ui/store/run-node.ts`); others are prose or shorthand. */
export function rootPaths(markdown: string, topLevel: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const candidate = match[1]!;
    if (!/^[\w.-]+(\/[\w.-]+)*\/?$/.test(candidate) || !candidate.includes('/')) continue;
    if (topLevel.includes(candidate.split('/')[0]!)) paths.add(candidate);
  }
  return [...paths];
}

/** Clause ids the spec defines: a paragraph that opens with the bold id (`**C9 Dispatch record.**`). */
export function definedClauses(spec: string): Set<string> {
  return new Set([...spec.matchAll(/^\*\*(C[0-9]+)\b/gm)].map((match) => match[1]!));
}

/** Every clause id cited in code, with the first file that cites it. */
export function citedClauses(files: readonly string[], read: (file: string) => string): Map<string, string> {
  const cited = new Map<string, string>();
  for (const file of files) {
    if (!CITING_FILE.test(file) || NOT_OURS.test(file)) continue;
    for (const match of read(file).matchAll(CLAUSE)) if (!cited.has(match[0])) cited.set(match[0], file);
  }
  return cited;
}

/** Every way the two documents disagree with the repository, one sentence each; empty when they agree. */
export function checkDocs(repository: Repository): string[] {
  const read = (file: string) => readFileSync(path.join(repository.root, file), 'utf8');
  const exists = (file: string) => existsSync(path.join(repository.root, file));
  const problems: string[] = [];
  for (const document of [ARCHITECTURE, SPEC]) if (!exists(document)) problems.push(`${document} is missing`);
  if (problems.length > 0) return problems;

  const architecture = read(ARCHITECTURE);
  const topLevel = topLevelFolders(repository.files);
  const folders = tableFolders(architecture);
  if (folders.length === 0) problems.push(`${ARCHITECTURE} has no folder table under "${FOLDER_TABLE_HEADING}"`);
  for (const folder of folders)
    if (!exists(folder)) problems.push(`${ARCHITECTURE} names the folder ${folder}, which does not exist`);
  const named = new Set(folders.map((folder) => folder.replace(/\/$/, '')));
  for (const folder of topLevel)
    if (!named.has(folder))
      problems.push(`the top-level folder ${folder}/ is not in the folder table of ${ARCHITECTURE}`);
  for (const named of rootPaths(architecture, topLevel))
    if (!exists(named)) problems.push(`${ARCHITECTURE} names ${named}, which does not exist`);
  // A repository with a renderer keeps its table in the map one order with the one the layer check enforces.
  if (repository.files.some((file) => file.startsWith(RENDERER_PREFIX)))
    problems.push(...rendererMapProblems(architecture, RENDERER_ZONES, RENDERER_PLUMBING));

  const defined = definedClauses(read(SPEC));
  for (const [clause, file] of citedClauses(repository.files, read))
    if (!defined.has(clause)) problems.push(`${file} cites ${clause}, which ${SPEC} does not define`);
  return problems;
}
