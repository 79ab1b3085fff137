/** Small display helpers for the Atlas views. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const RUNNER_LABEL: Record<string, string> = { 'claude-code': 'Claude Code', codex: 'Codex', pi: 'Pi' };

/** The last two segments of a folder, for compact project labels. */
export function shortFolder(path: string | null): string {
  if (!path) return 'Unknown folder';
  const parts = path.split('/').filter(Boolean);
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}

/**
 * Paths mentioned in free text: absolute paths and relative ones with a folder and an extension
 * (`src/hello.ts`). Used to offer "why this file" on a node.
 */
export function pathsInText(text: string): string[] {
  const found = new Set<string>();
  const pattern =
    /(?:^|[\s`'"([])((?:\/|\.\.?\/)?(?:[\w.-]+\/)+[\w.-]+\.[A-Za-z0-9]{1,8}|\/(?:[\w.-]+\/)*[\w.-]+\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),.:;\]])/g;
  for (const match of text.matchAll(pattern)) {
    const path = match[1]!;
    if (/^https?:/.test(path) || path.includes('//')) continue;
    found.add(path);
    if (found.size >= 20) break;
  }
  return [...found];
}

/** Labels for a set of folders: the last two segments, more where two folders would read the same. */
export function folderLabels(paths: readonly (string | null)[]): Map<string | null, string> {
  const labels = new Map<string | null, string>();
  const segments = new Map(paths.map((path) => [path, (path ?? '').split('/').filter(Boolean)] as const));
  let depth = 2;
  let pending: string[] = paths.filter((path): path is string => path !== null);
  for (const path of paths) if (path === null) labels.set(null, 'Unknown folder');
  while (pending.length > 0 && depth <= 12) {
    const label = (path: string) => {
      const parts = segments.get(path)!;
      return parts.length <= depth ? path : `…/${parts.slice(-depth).join('/')}`;
    };
    const counts = new Map<string, number>();
    for (const path of pending) counts.set(label(path), (counts.get(label(path)) ?? 0) + 1);
    const next: string[] = [];
    for (const path of pending) {
      if (counts.get(label(path)) === 1 || depth === 12) labels.set(path, label(path));
      else next.push(path);
    }
    pending = next;
    depth += 1;
  }
  return labels;
}

export function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1).trimEnd()}…` : flat;
}

/**
 * What to ask the why index for a path found in text: absolute paths as they are; a relative path has no folder
 * to resolve against in the browser, so its file name is asked for (matched anywhere).
 */
export function whyTargetFor(path: string): string {
  if (path.startsWith('/')) return path;
  return path.split('/').filter(Boolean).pop() ?? path;
}
