/**
 * Folder READMEs say what their folder may import and link to the map (`docs/architecture.md`, style 14). This
 * check, run by `scripts/check-layers.ts`, compares each README's imports line with the real imports of the files
 * it owns (a file belongs to the nearest README above it; tests may import more and are not counted), so a README
 * that forgets an import, or a new import its README does not allow, fails `npm test` with the file that imports it.
 *
 * The line: `May import:` or `Imports:` (bold allowed), then a comma-separated list — folders from the repository
 * root (`src/core/`), relative to the README (`../store`) or a sibling folder's bare name (`store`), the bare names
 * `core` (`src/core/`) and of top-level folders, packages (`zod`, `@ai-sdk/*`, `xyflow` for `@xyflow/react`,
 * `node:*` for Node built-ins; a backticked name that is no folder counts as a package), or `anything`. Words
 * that name none of these, parentheses and everything from the word "never" on are prose and are ignored.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ReadmeProblem {
  file: string;
  message: string;
}

const ARCHITECTURE = 'docs/architecture.md';
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const isTestFile = (file: string) => /\.(test|e2e|spec)\.(ts|tsx|mts|js|mjs)$/.test(file) || file.includes('/testing/');
const MARKER = /\*{0,2}(?:May import|Imports)\*{0,2}:\*{0,2}/;
/** Node's built-ins as imported without the `node:` prefix. */
const BUILTINS = new Set(['fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'util']);

/** What an imports line allows: repository paths (folders or files) and package patterns; `anything` allows all. */
export interface AllowedImports {
  anything: boolean;
  paths: string[];
  packages: string[];
}

/** The text of the imports line, from its marker to the end of its sentence (null when the README has none). */
export function importsLine(readme: string): string | null {
  const match = MARKER.exec(readme);
  if (!match) return null;
  const rest = readme.slice(match.index + match[0].length);
  const paragraph = rest.split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ');
  return paragraph.split(/\.(?=\s+[A-Z]|\s*$)/)[0]!.trim();
}

function packageName(specifier: string): string {
  if (specifier.startsWith('node:')) return 'node:*';
  const parts = specifier.split('?')[0]!.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? 'node:*' : name;
}

/** Reads an imports line for the README in `folder`, resolving names against the repository's files and packages. */
export function allowedImports(
  line: string,
  folder: string,
  repository: { folders: ReadonlySet<string>; files: ReadonlySet<string>; packages: readonly string[] },
): AllowedImports {
  const allowed: AllowedImports = { anything: false, paths: [], packages: [] };
  const kept = line.replace(/\([^)]*\)/g, ' ').split(/\bnever\b/i)[0]!;
  // A backticked name that is no folder is a package, even one installed only as another's dependency.
  const quoted = new Set([...kept.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
  const text = kept.replace(/`/g, '');
  const topLevel = new Set([...repository.folders].filter((name) => !name.includes('/')));
  const isPath = (candidate: string) =>
    repository.folders.has(candidate) || repository.files.has(candidate) || repository.files.has(`${candidate}.ts`);
  for (const raw of text.split(/[\s,;]+/)) {
    const word = raw.replace(/'s$/, '').replace(/[.:]+$/, '');
    if (!word) continue;
    if (word === 'anything') allowed.anything = true;
    else if (word === 'node:*' || word.startsWith('node:')) allowed.packages.push('node:*');
    else if (word.startsWith('.')) allowed.paths.push(path.posix.normalize(path.posix.join(folder, word)));
    else if (word.includes('/') && !word.startsWith('@') && isPath(word.replace(/\/$/, '')))
      allowed.paths.push(word.replace(/\/$/, ''));
    else if (word === 'core') allowed.paths.push('src/core');
    else if (topLevel.has(word)) allowed.paths.push(word);
    else if (repository.folders.has(path.posix.join(path.posix.dirname(folder), word)))
      allowed.paths.push(path.posix.join(path.posix.dirname(folder), word));
    else {
      const packages = repository.packages.filter((name) => {
        if (name === word) return true;
        if (word.endsWith('/*')) return name.startsWith(word.slice(0, -1));
        const [scope, unscoped] = name.startsWith('@') ? name.slice(1).split('/') : [];
        return scope === word || unscoped === word;
      });
      if (word.endsWith('/*') || (packages.length === 0 && quoted.has(word))) allowed.packages.push(word);
      else allowed.packages.push(...packages);
    }
  }
  return allowed;
}

function permits(allowed: AllowedImports, target: { path?: string; packageName?: string }): boolean {
  if (allowed.anything) return true;
  if (target.packageName) {
    const name = target.packageName;
    return allowed.packages.some(
      (pattern) => pattern === name || (pattern.endsWith('/*') && name.startsWith(pattern.slice(0, -1))),
    );
  }
  const file = target.path!;
  return allowed.paths.some((entry) => file === entry || file.startsWith(`${entry}/`) || entry.startsWith(`${file}.`));
}

/** The folder of the nearest README at or above `file`'s folder, or null. */
function ownerOf(file: string, readmeFolders: ReadonlySet<string>): string | null {
  for (let folder = path.posix.dirname(file); folder !== '.'; folder = path.posix.dirname(folder))
    if (readmeFolders.has(folder)) return folder;
  return null;
}

/** Every folder README whose link to the map or imports line disagrees with the repository. */
export function checkReadmeImports(
  files: readonly string[],
  read: (file: string) => string,
  packages: readonly string[],
): ReadmeProblem[] {
  const readmes = files.filter((file) => file.endsWith('/README.md') && !/(^|\/)(node_modules|fixtures)\//.test(file));
  const readmeFolders = new Set(readmes.map((file) => path.posix.dirname(file)));
  const folders = new Set<string>();
  for (const file of files)
    for (let folder = path.posix.dirname(file); folder !== '.'; folder = path.posix.dirname(folder))
      folders.add(folder);
  const repository = { folders, files: new Set(files), packages };

  const problems: ReadmeProblem[] = [];
  const allowedByFolder = new Map<string, AllowedImports>();
  for (const readme of readmes) {
    const folder = path.posix.dirname(readme);
    const text = read(readme);
    const mapLink = path.posix.relative(folder, ARCHITECTURE);
    if (!text.includes(`](${mapLink}`))
      problems.push({ file: readme, message: `does not link to the map: add a link to (${mapLink})` });
    const line = importsLine(text);
    if (line === null)
      problems.push({
        file: readme,
        message: 'has no imports line ("May import: …") saying what its folder may import',
      });
    else allowedByFolder.set(folder, allowedImports(line, folder, repository));
  }

  const reported = new Set<string>();
  for (const file of files) {
    if (!SOURCE.test(file) || file.endsWith('.d.ts') || isTestFile(file)) continue;
    const folder = ownerOf(file, readmeFolders);
    const allowed = folder === null ? undefined : allowedByFolder.get(folder);
    if (!folder || !allowed) continue;
    for (const reference of ts.preProcessFile(read(file), true, true).importedFiles) {
      const specifier = reference.fileName;
      let target: { path?: string; packageName?: string };
      let name: string;
      if (specifier.startsWith('.')) {
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier.split('?')[0]!));
        if (resolved.startsWith(`${folder}/`)) continue;
        target = { path: resolved };
        // Name the folder a README would list: the owner of the imported file, else its folder.
        name = ownerOf(resolved, readmeFolders) ?? path.posix.dirname(resolved);
      } else {
        target = { packageName: packageName(specifier) };
        name = target.packageName!;
      }
      if (permits(allowed, target) || reported.has(`${folder}\0${name}`)) continue;
      reported.add(`${folder}\0${name}`);
      problems.push({
        file: `${folder}/README.md`,
        message: `its imports line does not name '${name}', which ${file} imports ('${specifier}')`,
      });
    }
  }
  return problems;
}

/** The check on the repository at `root`, as git tracks it. */
export function readmeProblemsAt(root: string): ReadmeProblem[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  const files = listed.split('\n').filter((file) => file && existsSync(path.join(root, file)));
  return checkReadmeImports(files, (file) => readFileSync(path.join(root, file), 'utf8'), repositoryPackages(root));
}

/** The packages a README may name: the repository's dependencies and devDependencies. */
export function repositoryPackages(root: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
}
