import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { IndexError } from './index-error.ts';

/** What `weft why <path>` asks about, once the argument is understood. */
export type WhyTarget =
  | { kind: 'path'; path: string }
  | { kind: 'name'; name: string; under: string | null }
  | { kind: 'url'; url: string }
  | { kind: 'paper'; paperKind: 'arxiv' | 'doi'; identifier: string };

export interface WhyTargetOptions {
  cwd: string;
  /** Bare names match anywhere instead of only inside the current git root. */
  all?: boolean;
  /**
   * More folders a relative path may be relative to, besides `cwd` (the app has no working directory of
   * its own: it passes the canvas's and the sessions' working directories).
   */
  alsoRelativeTo?: readonly string[];
}

/**
 * Absolute path, path relative to `cwd` (anything with a slash or a leading dot), bare file name
 * (suffix match inside the git root of `cwd`), URL, `arxiv:<id>` or `doi:<id>`.
 */
export function resolveWhyTarget(input: string, options: WhyTargetOptions): WhyTarget {
  const text = input.trim();
  if (text === '') throw new IndexError('bad-target', 'give a path, file name, URL or arxiv:<id>');
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  const paper = /^(arxiv|doi):\s*(.+)$/i.exec(text);
  if (paper) {
    const paperKind = paper[1]!.toLowerCase() as 'arxiv' | 'doi';
    const identifier = paperKind === 'arxiv' ? paper[2]!.replace(/v\d+$/i, '') : paper[2]!;
    return { kind: 'paper', paperKind, identifier: identifier.toLowerCase() };
  }
  if (isAbsolute(text)) return { kind: 'path', path: trimSlash(resolve(text)) };
  if (text.includes('/') || text === '.' || text === '..')
    return { kind: 'path', path: trimSlash(resolve(options.cwd, text)) };
  return { kind: 'name', name: text, under: options.all ? null : findGitRoot(options.cwd) };
}

/**
 * `resolveWhyTarget`, with a relative path resolved against `cwd` and each of `alsoRelativeTo`: one path
 * target per distinct folder. Anything else is the single target `resolveWhyTarget` gives.
 */
export function resolveWhyTargets(input: string, options: WhyTargetOptions): WhyTarget[] {
  const target = resolveWhyTarget(input, options);
  const text = input.trim();
  if (target.kind !== 'path' || isAbsolute(text) || !options.alsoRelativeTo?.length) return [target];
  const paths = new Set([target.path]);
  for (const folder of options.alsoRelativeTo) if (isAbsolute(folder)) paths.add(trimSlash(resolve(folder, text)));
  return [...paths].map((path) => ({ kind: 'path', path }));
}

/** The nearest directory at or above `start` holding `.git` (a folder or a worktree file), or null. */
export function findGitRoot(start: string): string | null {
  let directory = resolve(start);
  for (;;) {
    if (existsSync(join(directory, '.git'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) return null;
    directory = parent;
  }
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
