import { describe, expect, it } from 'vitest';
import { checkReadmeImports, importsLine } from './check-readme-imports.ts';

const PACKAGES = ['zod', 'react', '@xyflow/react', '@ai-sdk/openai', 'better-sqlite3'];

/** Runs the check over an in-memory repository: path → text. */
function check(files: Record<string, string>) {
  return checkReadmeImports(Object.keys(files), (file) => files[file]!, PACKAGES);
}

const readme = (title: string, link: string, line: string) => `# ${title}\n\nOn the map: [map](${link}).\n\n${line}\n`;

const base = {
  'docs/architecture.md': '# Map\n',
  'protocol/index.ts': 'export const x = 1;\n',
  'runtime/fs/index.ts': 'export const home = 1;\n',
  'runtime/index/README.md': readme(
    'runtime/index',
    '../../docs/architecture.md',
    'May import: `protocol/`, `runtime/fs`, `node:*`, `better-sqlite3`. Never ui or `server/`.',
  ),
  'runtime/index/why.ts': [
    "import { x } from '../../protocol/index.ts';",
    "import { home } from '../fs/index.ts';",
    "import { readFileSync } from 'node:fs';",
    "import Database from 'better-sqlite3';",
    "import { local } from './local.ts';",
  ].join('\n'),
  'runtime/index/local.ts': 'export const local = 1;\n',
};

describe('folder READMEs: the link to the map and the imports line', () => {
  it('passes a README whose line names every import of its folder', () => {
    expect(check(base)).toEqual([]);
  });

  it('names the file that imports what the line does not allow', () => {
    const problems = check({
      ...base,
      'runtime/index/why.ts': base['runtime/index/why.ts'] + "\nimport { z } from 'zod';",
    });
    expect(problems).toEqual([
      {
        file: 'runtime/index/README.md',
        message: "its imports line does not name 'zod', which runtime/index/why.ts imports ('zod')",
      },
    ]);
  });

  it('does not read what follows "Never" as allowed', () => {
    const problems = check({ ...base, 'server/app.ts': '', 'runtime/index/why.ts': "import '../../server/app.ts';" });
    expect(problems.map((problem) => problem.message)).toEqual([
      "its imports line does not name 'server', which runtime/index/why.ts imports ('../../server/app.ts')",
    ]);
  });

  it('fails a README without the link or without an imports line', () => {
    const problems = check({
      ...base,
      'runtime/index/README.md': '# runtime/index\n\nThe why index.\n',
    });
    expect(problems).toEqual([
      {
        file: 'runtime/index/README.md',
        message: 'does not link to the map: add a link to (../../docs/architecture.md)',
      },
      {
        file: 'runtime/index/README.md',
        message: 'has no imports line ("May import: …") saying what its folder may import',
      },
    ]);
  });

  it('reads sibling folders by bare name, scoped packages by scope, and ignores tests', () => {
    const files = {
      'docs/architecture.md': '',
      'src/ui/store/index.ts': '',
      'src/ui/canvas/README.md': readme(
        'src/ui/canvas',
        '../../../docs/architecture.md',
        'Imports: store, react, xyflow (lazily).',
      ),
      'src/ui/canvas/Canvas.tsx':
        "import { useStore } from '../store/index.ts';\nimport { memo } from 'react';\nimport { ReactFlow } from '@xyflow/react';",
      'src/ui/canvas/Canvas.test.tsx': "import { describe } from 'vitest';\nimport '../panels/x.ts';",
    };
    expect(check(files)).toEqual([]);
    const widened = { ...files, 'src/ui/canvas/Toolbar.tsx': "import { Dialog } from '../panels/Dialog.tsx';" };
    expect(check(widened).map((problem) => problem.message)).toEqual([
      "its imports line does not name 'src/ui/panels', which src/ui/canvas/Toolbar.tsx imports ('../panels/Dialog.tsx')",
    ]);
  });

  it('checks a file against the nearest README above it only', () => {
    const files = {
      ...base,
      'runtime/index/sqlite/README.md': readme(
        'sqlite',
        '../../../docs/architecture.md',
        'May import: `better-sqlite3`.',
      ),
      'runtime/index/sqlite/open.ts':
        "import Database from 'better-sqlite3';\nimport { home } from '../../fs/index.ts';",
    };
    expect(check(files)).toEqual([
      {
        file: 'runtime/index/sqlite/README.md',
        message:
          "its imports line does not name 'runtime/fs', which runtime/index/sqlite/open.ts imports ('../../fs/index.ts')",
      },
    ]);
  });

  it('finds the line in its bold and multi-line forms and stops at the sentence', () => {
    expect(importsLine('Zod schemas. **May import:** `zod` only. Each format is versioned.')).toBe('`zod` only');
    expect(importsLine('May import: `protocol/`, `src/core/`,\n`runtime/fs`. Tests use `tests/support/`.')).toBe(
      '`protocol/`, `src/core/`, `runtime/fs`',
    );
    expect(importsLine('Imports (C34): a stream of conversations.')).toBeNull();
  });
});
