import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listSourceFiles } from './check-layers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASE_FILE = 'protocol/weft-error.ts';
/** The built-in error constructors a class could extend to escape the base. */
const BUILT_IN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'AggregateError', 'DOMException']);
/** A class declaration at the start of a line (so neither prose in a comment nor a string matches). */
const CLASS =
  /^[ \t]*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(\w+)(?:\s*<[^>{]*>)?\s+extends\s+([\w.]+)/gm;

/** Classes (with their file) that are errors but do not reach `WeftError` through their `extends` chain. */
export function errorClassesOutsideBase(files: readonly string[], read: (file: string) => string): string[] {
  const declared: { file: string; name: string; parent: string }[] = [];
  for (const file of files)
    for (const match of read(file).matchAll(CLASS)) declared.push({ file, name: match[1]!, parent: match[2]! });
  const parentOf = new Map(declared.map((entry) => [entry.name, entry.parent]));
  const reachesBase = (entry: { file: string; name: string; parent: string }): boolean | null => {
    if (entry.file === BASE_FILE && entry.name === 'WeftError') return true;
    const seen = new Set<string>();
    let parent: string | undefined = entry.parent;
    while (parent !== undefined && !seen.has(parent)) {
      if (parent === 'WeftError') return true;
      if (BUILT_IN_ERRORS.has(parent)) return false;
      seen.add(parent);
      parent = parentOf.get(parent);
    }
    return null; // not an error class (a React component, a stream)
  };
  return declared.filter((entry) => reachesBase(entry) === false).map((entry) => `${entry.file}: ${entry.name}`);
}

describe('one error base', () => {
  it('every error class in the repository extends WeftError (protocol/weft-error.ts)', () => {
    const files = listSourceFiles();
    expect(files).toContain(BASE_FILE);
    expect(errorClassesOutsideBase(files, (file) => readFileSync(path.join(root, file), 'utf8'))).toEqual([]);
  });

  it('names a class that extends Error or a built-in error directly, or through another class', () => {
    const sources: Record<string, string> = {
      [BASE_FILE]: 'export class WeftError extends Error {}',
      'runtime/a.ts': 'export class Coded extends WeftError {}\nclass Local extends Coded {}',
      'runtime/b.ts': 'export class Stray extends Error {}\n  export class Below extends Stray {}',
      'runtime/d.ts': '// a class that extends Error is refused\nconst text = "class Quoted extends Error";',
      'src/ui/c.tsx': 'class Range extends RangeError {}\nexport class View extends Component<Props, State> {}',
    };
    expect(errorClassesOutsideBase(Object.keys(sources), (file) => sources[file]!)).toEqual([
      'runtime/b.ts: Stray',
      'runtime/b.ts: Below',
      'src/ui/c.tsx: Range',
    ]);
  });
});
