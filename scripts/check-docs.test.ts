import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDocs, repositoryAt } from './check-docs.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('docs/architecture.md and docs/spec.md agree with the repository', () => {
  it('holds for this repository', () => {
    expect(checkDocs(repositoryAt(root))).toEqual([]);
  });
});

// Clause ids are built at run time so this file cites none of its own (the check reads every .ts file).
const clause = (number: number) => `C${String(number)}`;

const MAP = `# Map

## Folders and what each may import

| folder | owns |
| --- | --- |
| \`core/\` | the domain |
| \`docs/\` | this |

## The path of one ask

| step | file |
| --- | --- |
| compile | \`core/compile.ts\` |
`;

const SPEC = `# Spec

**${clause(1)} Nodes.** Kinds.

**${clause(2)} Wires.** Solid and dashed; ${clause(7)} is only mentioned here, not defined.
`;

describe('checkDocs on a small repository', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** A real git repository with these files, tracked. */
  function repository(files: Record<string, string>): string {
    const folder = mkdtempSync(path.join(tmpdir(), 'weft-check-docs-'));
    made.push(folder);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
      writeFileSync(path.join(folder, file), text);
    }
    execFileSync('git', ['init', '-q'], { cwd: folder });
    execFileSync('git', ['add', '.'], { cwd: folder });
    return folder;
  }

  const agreeing = {
    'docs/architecture.md': MAP,
    'docs/spec.md': SPEC,
    'core/compile.ts': `/** The compiler (${clause(1)}, ${clause(2)}). */\nexport const compile = 1;\n`,
  };

  it('finds nothing when the map and the spec agree with the files', () => {
    expect(checkDocs(repositoryAt(repository(agreeing)))).toEqual([]);
  });

  it('fails when a top-level folder is missing from the folder table', () => {
    const folder = repository({ ...agreeing, 'server/main.ts': 'export {};\n' });
    expect(checkDocs(repositoryAt(folder))).toEqual([
      'the top-level folder server/ is not in the folder table of docs/architecture.md',
    ]);
  });

  it('fails when the folder table names a folder that does not exist', () => {
    const folder = repository({
      ...agreeing,
      'docs/architecture.md': MAP.replace('| `docs/` | this |', '| `docs/` | this |\n| `shared/` | gone |'),
    });
    expect(checkDocs(repositoryAt(folder))).toEqual([
      'docs/architecture.md names the folder shared/, which does not exist',
    ]);
  });

  it('fails when a path the map names has moved', () => {
    const { 'core/compile.ts': text, ...rest } = agreeing;
    const folder = repository({ ...rest, 'core/compiler.ts': text });
    expect(checkDocs(repositoryAt(folder))).toEqual([
      'docs/architecture.md names core/compile.ts, which does not exist',
    ]);
  });

  it('fails when code cites a clause the spec does not define (a mention is not a definition)', () => {
    const folder = repository({ ...agreeing, 'core/stale.ts': `// ${clause(7)}: stale marks\nexport {};\n` });
    expect(checkDocs(repositoryAt(folder))).toEqual([
      `core/stale.ts cites ${clause(7)}, which docs/spec.md does not define`,
    ]);
  });

  it('fails when either document is missing', () => {
    const { 'docs/spec.md': _spec, ...rest } = agreeing;
    expect(checkDocs(repositoryAt(repository(rest)))).toEqual(['docs/spec.md is missing']);
  });
});
