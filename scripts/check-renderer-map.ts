/**
 * Keeps the renderer's table in `docs/architecture.md` ("Inside the renderer") true to `RENDERER_ZONES`, the order
 * `scripts/check-layers.ts` enforces: the table lists every declared folder and no other, and each row's "may import"
 * cell names exactly the folders its zone may import. The map is read by people, the zones by the check; this keeps
 * them one order.
 */
import type { RendererZone } from './layer-rules.ts';

export const RENDERER_TABLE_HEADING = '## Inside the renderer (src/ui)';

export interface RendererRow {
  folder: string;
  /** The "may import" cell as written. */
  mayImport: string;
}

/** The rows of the renderer's folder table: first cell a backticked folder (`store/`), third cell its imports. */
export function rendererRows(architecture: string): RendererRow[] {
  const start = architecture.indexOf(RENDERER_TABLE_HEADING);
  if (start < 0) return [];
  const section = architecture.slice(start + RENDERER_TABLE_HEADING.length).split(/\n## /)[0]!;
  const rows: RendererRow[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const folder = /^`([\w-]+)\/`$/.exec(cells[1] ?? '');
    if (folder && cells.length >= 4) rows.push({ folder: folder[1]!, mayImport: cells[3]! });
  }
  return rows;
}

/**
 * The folders a cell names: "nothing", "every folder" (all others), "the plumbing" / "the plumbing above" (the plumbing
 * folders below this one), and folder names separated by commas.
 */
export function namedImports(
  cell: string,
  folder: string,
  zones: readonly RendererZone[],
  plumbing: readonly string[],
): string[] {
  const text = cell.replace(/\(.*?\)/g, '').trim();
  if (text === 'nothing') return [];
  if (text === 'every folder') return zones.map((zone) => zone.folder).filter((each) => each !== folder);
  const named = new Set<string>();
  for (const part of text
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean)) {
    if (/^the plumbing( above)?$/.test(part)) {
      const own = plumbing.indexOf(folder);
      for (const below of own < 0 ? plumbing : plumbing.slice(0, own)) named.add(below);
    } else named.add(part);
  }
  return [...named];
}

/** Every way the table and the zones disagree, one sentence each; empty when they agree. */
export function rendererMapProblems(
  architecture: string,
  zones: readonly RendererZone[],
  plumbing: readonly string[],
): string[] {
  const rows = rendererRows(architecture);
  if (rows.length === 0) return [`docs/architecture.md has no renderer table under "${RENDERER_TABLE_HEADING}"`];
  const problems: string[] = [];
  const declared = new Map(zones.map((zone) => [zone.folder, zone]));
  const listed = new Set(rows.map((row) => row.folder));
  for (const zone of zones)
    if (!listed.has(zone.folder))
      problems.push(`the renderer table does not list ${zone.folder}/ (RENDERER_ZONES does)`);
  for (const row of rows) {
    const zone = declared.get(row.folder);
    if (!zone) {
      problems.push(`the renderer table lists ${row.folder}/, which RENDERER_ZONES does not declare`);
      continue;
    }
    const said = namedImports(row.mayImport, row.folder, zones, plumbing).sort();
    const enforced = [...zone.mayImport].sort();
    if (said.join() !== enforced.join())
      problems.push(
        `the renderer table says ${row.folder}/ may import [${said.join(', ')}], RENDERER_ZONES says [${enforced.join(', ')}]`,
      );
  }
  return problems;
}
