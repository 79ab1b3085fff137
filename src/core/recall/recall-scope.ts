/** Without its trailing slashes (a root `/` stays `/`). */
function trimmed(path: string): string {
  const without = path.replace(/[/\\]+$/, '');
  return without === '' ? path.slice(0, 1) : without;
}

/**
 * C16: whether something asked in `cwd` belongs to the project at `project` (the folder itself or inside it).
 * Nothing without a recorded folder is inside a project: it is reached only with the global switch.
 */
export function insideProject(cwd: string | null, project: string): boolean {
  if (cwd === null || cwd === '') return false;
  const base = trimmed(project);
  const path = trimmed(cwd);
  if (path === base) return true;
  const prefix = base.endsWith('/') || base.endsWith('\\') ? base : `${base}${base.includes('\\') ? '\\' : '/'}`;
  return path.startsWith(prefix);
}
