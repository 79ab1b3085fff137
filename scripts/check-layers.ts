/**
 * Layer check (part of `npm test`): every source file belongs to a declared layer, imports only what its
 * layer may import (docs/architecture.md), and no import cycle exists. Prints one line per violation with the reason.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {
  ZONES,
  ROOT_FILES,
  TOP_ZONES,
  TEST_ONLY_PACKAGES,
  RENDERER_PREFIX,
  RENDERER_ENTRY,
  RENDERER_ZONES,
  type RendererZone,
  type Zone,
} from './layer-rules.ts';
import { readmeProblemsAt } from './check-readme-imports.ts';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

export interface Violation {
  file: string;
  message: string;
}

export function listSourceFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts') && existsSync(path.join(root, file)))
    .filter((file) => !/(^|\/)(node_modules|dist|__golden__|fixtures)\//.test(file));
}

export function zoneOf(file: string): Zone | null {
  return ZONES.find((zone) => file.startsWith(zone.prefix)) ?? null;
}

const isTestFile = (file: string) => /\.(test|e2e|spec)\.(ts|tsx|mts|js|mjs)$/.test(file) || file.includes('/testing/');

const readFromDisk = (file: string) => readFileSync(path.join(root, file), 'utf8');

function importsOf(file: string, read: (file: string) => string): string[] {
  const info = ts.preProcessFile(read(file), true, true);
  return info.importedFiles.map((ref) => ref.fileName);
}

function packageName(specifier: string): string {
  if (specifier.startsWith('node:')) return specifier;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Resolves a relative import to a repository file, trying the usual extensions. */
function resolveRelative(from: string, specifier: string): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    `${base}/index.ts`,
  ];
  for (const candidate of candidates) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return base;
}

export function checkLayers(
  files = listSourceFiles(),
  read = readFromDisk,
): { violations: Violation[]; edges: Map<string, string[]> } {
  const violations: Violation[] = [];
  const edges = new Map<string, string[]>();
  const surfaces = new Set(files.filter((file) => file.endsWith('/index.ts')).map((file) => path.posix.dirname(file)));
  for (const file of files) {
    const zone = zoneOf(file);
    if (!zone) {
      if (!ROOT_FILES.has(file))
        violations.push({
          file,
          message:
            'belongs to no declared layer (see scripts/layer-rules.ts and docs/architecture.md); move it into one',
        });
      continue;
    }
    const targets: string[] = [];
    const ownFolder = rendererFolderOf(file);
    if (ownFolder && ownFolder !== RENDERER_ENTRY && !rendererZone(ownFolder))
      violations.push({
        file,
        message: `is in ${RENDERER_PREFIX}${ownFolder}/, which is no declared renderer folder (RENDERER_ZONES in scripts/layer-rules.ts); add it to the order or move the file`,
      });
    for (const specifier of importsOf(file, read)) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier) ?? specifier;
        targets.push(target);
        const targetZone = zoneOf(target);
        if (!targetZone) {
          violations.push({ file, message: `imports '${specifier}', which is outside every layer` });
          continue;
        }
        if (TOP_ZONES.includes(targetZone.prefix) && targetZone.prefix !== zone.prefix) {
          violations.push({
            file,
            message: `imports '${specifier}' from ${targetZone.prefix}, which nothing may import (${targetZone.why})`,
          });
          continue;
        }
        // Tests anywhere may use shared test support (real servers, scripted providers, sample canvases).
        const testSupport = isTestFile(file) && target.startsWith('tests/support/');
        const allowed =
          testSupport ||
          zone.mayImportZones.includes('*') ||
          zone.mayImportZones.some((prefix) => target.startsWith(prefix));
        const rendererRefusal = allowed ? rendererOrderRefusal(file, target) : null;
        if (!allowed)
          violations.push({ file, message: `may not import '${specifier}' (${targetZone.prefix}): ${zone.why}` });
        else if (rendererRefusal)
          violations.push({ file, message: `may not import '${specifier}' ${rendererRefusal}` });
        else if (!isTestFile(file) && !/^(tests|e2e|scripts)\//.test(file)) {
          const surface = publicSurfaceOf(target, surfaces);
          if (surface && layerOf(`${surface}/-`) !== layerOf(file) && target !== `${surface}/index.ts`)
            violations.push({
              file,
              message: `imports '${specifier}' past the public surface of ${surface}: import '${surface}/index.ts' (docs/architecture.md style 14; tests may reach inside)`,
            });
        }
        continue;
      }
      const name = packageName(specifier);
      if (isTestFile(file) && TEST_ONLY_PACKAGES.includes(name)) continue;
      if (zone.allowedPackages && !zone.allowedPackages.includes(name)) {
        violations.push({ file, message: `may not import package '${name}': ${zone.why}` });
      } else if (zone.deniedPackages?.match(name)) {
        violations.push({ file, message: `may not import package '${name}': ${zone.deniedPackages.why}` });
      }
    }
    edges.set(file, targets);
  }
  return { violations, edges };
}

/** The renderer folder a file is in (`RENDERER_ENTRY` for the files directly in `src/ui/`), or null outside it. */
export function rendererFolderOf(file: string): string | null {
  if (!file.startsWith(RENDERER_PREFIX)) return null;
  const rest = file.slice(RENDERER_PREFIX.length);
  return rest.includes('/') ? rest.split('/')[0]! : RENDERER_ENTRY;
}

const rendererZone = (folder: string): RendererZone | undefined => RENDERER_ZONES.find((z) => z.folder === folder);

/** Why an import from one renderer folder into another runs against the renderer's order, or null if it may. */
function rendererOrderRefusal(file: string, target: string): string | null {
  const from = rendererFolderOf(file);
  const to = rendererFolderOf(target);
  if (!from || !to || from === to || from === RENDERER_ENTRY) return null;
  if (to === RENDERER_ENTRY)
    return `(${target}): the renderer's entry assembles the app, so nothing in it may import it`;
  const fromZone = rendererZone(from);
  if (!fromZone) return null; // already reported: the file is in no declared renderer folder
  if (!rendererZone(to)) return `(${RENDERER_PREFIX}${to}/): no declared renderer folder (RENDERER_ZONES)`;
  if (fromZone.mayImport.includes(to)) return null;
  return `(${RENDERER_PREFIX}${to}/): ${RENDERER_PREFIX}${from}/ may import only ${fromZone.mayImport.join(', ') || 'core and protocol'}; ${fromZone.why}`;
}

/** The declared renderer order must be a tree read lowest first: a folder may import only folders declared before it. */
export function rendererOrderProblems(zones: RendererZone[] = RENDERER_ZONES): string[] {
  const problems: string[] = [];
  zones.forEach((zone, index) => {
    for (const folder of zone.mayImport) {
      const at = zones.findIndex((other) => other.folder === folder);
      if (at < 0) problems.push(`${zone.folder} may import ${folder}, which is no declared renderer folder`);
      else if (at >= index)
        problems.push(`${zone.folder} may import ${folder}, which is not below it (a cycle in the order)`);
    }
  });
  return problems;
}

/**
 * A layer for the public-surface rule: `src/<x>` and `runtime/<x>` are layers of their own, and so is each renderer
 * folder `src/ui/<x>`; else the top folder.
 */
function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'src' && parts[1] === 'ui' && parts.length > 3) return parts.slice(0, 3).join('/');
  return parts[0] === 'src' || parts[0] === 'runtime' ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The folder whose `index.ts` is the public surface for a file: the nearest one above it within its layer. */
function publicSurfaceOf(file: string, surfaces: Set<string>): string | null {
  for (let folder = path.posix.dirname(file); folder !== '.'; folder = path.posix.dirname(folder)) {
    if (layerOf(`${folder}/-`) !== layerOf(file)) return null;
    if (surfaces.has(folder)) return folder;
  }
  return null;
}

/** Tarjan's strongly connected components; any component of two or more files (or a self-import) is a cycle. */
export function findCycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!indices.has(node)) visit(node);
  return cycles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = listSourceFiles();
  const { violations, edges } = checkLayers(files);
  for (const cycle of findCycles(edges))
    violations.push({ file: cycle[0]!, message: `import cycle: ${cycle.join(' -> ')}` });
  violations.push(...readmeProblemsAt(root));
  for (const problem of rendererOrderProblems())
    violations.push({ file: 'scripts/layer-rules.ts', message: `renderer order: ${problem}` });
  for (const violation of violations) console.error(`layers: ${violation.file}: ${violation.message}`);
  console.log(`layers: ${files.length} files checked, ${violations.length} violation(s)`);
  if (violations.length > 0) process.exitCode = 1;
}
