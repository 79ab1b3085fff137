import { describe, expect, it } from 'vitest';
import { checkLayers, findCycles, rendererOrderProblems } from './check-layers.ts';
import { RENDERER_ZONES } from './layer-rules.ts';

const sources: Record<string, string> = {
  'src/core/pure.ts':
    "import { z } from 'zod';\nimport { readFileSync } from 'node:fs';\nimport { x } from '../ui/app.tsx';\n",
  'src/ui/app.tsx':
    "import React from 'react';\nimport { compile } from '../core/pure.ts';\nimport { open } from '../../runtime/fs/open.ts';\n",
  'runtime/fs/open.ts': "import { startServer } from '../../server/start-server.ts';\n",
  'server/start-server.ts': "import express from 'express';\nimport { open } from '../runtime/fs/open.ts';\n",
  'stray/file.ts': 'export const x = 1;\n',
  'protocol/a.ts': "import { b } from './b.ts';\n",
  'protocol/b.ts': "import { a } from './a.ts';\n",
};
const read = (file: string) => sources[file] ?? '';

describe('layer check', () => {
  const { violations, edges } = checkLayers(Object.keys(sources), read);
  const messagesFor = (file: string) =>
    violations
      .filter((v) => v.file === file)
      .map((v) => v.message)
      .join('\n');

  it('keeps src/core free of Node, UI and unlisted packages, and says why', () => {
    const messages = messagesFor('src/core/pure.ts');
    expect(messages).toContain("package 'node:fs'");
    expect(messages).toContain("package 'zod'");
    expect(messages).toContain("'../ui/app.tsx'");
    expect(messages).toContain('pure and deterministic');
  });

  it('refuses renderer imports of runtime and runtime imports of the server', () => {
    expect(messagesFor('src/ui/app.tsx')).toContain('runtime/');
    expect(messagesFor('src/ui/app.tsx')).not.toContain("'react'");
    expect(messagesFor('runtime/fs/open.ts')).toContain('server/');
  });

  it('fails a file that belongs to no layer', () => {
    expect(messagesFor('stray/file.ts')).toContain('no declared layer');
  });

  it('finds import cycles', () => {
    const cycles = findCycles(edges);
    expect(cycles).toContainEqual(['protocol/a.ts', 'protocol/b.ts']);
    expect(cycles).toContainEqual(['runtime/fs/open.ts', 'server/start-server.ts']);
  });
});

describe('test files', () => {
  it('may use shared test support, while the code beside them may not', () => {
    const files: Record<string, string> = {
      'server/routes/generate-route.test.ts':
        "import { startScriptedProvider } from '../../tests/support/scripted-provider.ts';\n",
      'server/routes/generate-route.ts':
        "import { startScriptedProvider } from '../../tests/support/scripted-provider.ts';\n",
    };
    const { violations } = checkLayers(Object.keys(files), (file) => files[file] ?? '');
    expect(violations.map((v) => v.file)).toEqual(['server/routes/generate-route.ts']);
  });
});

describe('public surfaces', () => {
  it('sends an import from another layer through the folder index.ts, while tests and the layer itself reach inside', () => {
    const files: Record<string, string> = {
      'runtime/fs/index.ts': "export { atomicWrite } from './atomic-write.ts';\n",
      'runtime/fs/atomic-write.ts': 'export const atomicWrite = 1;\n',
      'runtime/fs/json-store.ts': "import { atomicWrite } from './atomic-write.ts';\n",
      'server/deep.ts': "import { atomicWrite } from '../runtime/fs/atomic-write.ts';\n",
      'server/surface.ts': "import { atomicWrite } from '../runtime/fs/index.ts';\n",
      'server/deep.test.ts': "import { atomicWrite } from '../runtime/fs/atomic-write.ts';\n",
    };
    const { violations } = checkLayers(Object.keys(files), (file) => files[file] ?? '');
    expect(violations.map((v) => v.file)).toEqual(['server/deep.ts']);
    expect(violations[0]!.message).toContain("import 'runtime/fs/index.ts'");
  });
});

describe('inside the renderer (src/ui)', () => {
  const files: Record<string, string> = {
    'src/ui/store/index.ts': "export { nodeTitle } from './node-labels.ts';\n",
    'src/ui/store/node-labels.ts': 'export const nodeTitle = 1;\n',
    'src/ui/store/weft-store.ts': "import { NodePanel } from '../panels/index.ts';\n",
    'src/ui/store/weft-store.test.ts': "import { NodePanel } from '../panels/NodePanel.tsx';\n",
    'src/ui/panels/index.ts': "export { NodePanel } from './NodePanel.tsx';\n",
    'src/ui/panels/NodePanel.tsx': "import { nodeTitle } from '../store/index.ts';\n",
    'src/ui/panels/Replay.tsx': "import { nodeTitle } from '../store/node-labels.ts';\n",
    'src/ui/panels/Replay.test.tsx': "import { nodeTitle } from '../store/node-labels.ts';\n",
    'src/ui/canvas/CanvasToolbar.tsx': "import { NodePanel } from '../panels/index.ts';\n",
    'src/ui/atlas/AtlasView.tsx': "import { main } from '../main.tsx';\n",
    'src/ui/main.tsx': "import { NodePanel } from './panels/index.ts';\nexport const main = 1;\n",
    'src/ui/gadgets/Gadget.tsx': 'export const gadget = 1;\n',
  };
  const { violations } = checkLayers(Object.keys(files), (file) => files[file] ?? '');
  const messagesFor = (file: string) =>
    violations
      .filter((v) => v.file === file)
      .map((v) => v.message)
      .join('\n');

  it('refuses an import against the order, in code and in tests, and says why', () => {
    expect(messagesFor('src/ui/store/weft-store.ts')).toContain("may not import '../panels/index.ts' (src/ui/panels/)");
    expect(messagesFor('src/ui/store/weft-store.ts')).toContain('may not depend on any view');
    expect(messagesFor('src/ui/store/weft-store.test.ts')).toContain('(src/ui/panels/)');
    // canvas sits below panels: the toolbar may not open a panel's dialog
    expect(messagesFor('src/ui/canvas/CanvasToolbar.tsx')).toContain('(src/ui/panels/)');
  });

  it('lets a folder import the folders below it, and the entry import every folder', () => {
    expect(messagesFor('src/ui/panels/NodePanel.tsx')).toBe('');
    expect(messagesFor('src/ui/main.tsx')).toBe('');
  });

  it('sends an import from another folder through its index.ts, while tests reach inside', () => {
    expect(messagesFor('src/ui/panels/Replay.tsx')).toContain("import 'src/ui/store/index.ts'");
    expect(messagesFor('src/ui/panels/Replay.test.tsx')).toBe('');
  });

  it("refuses imports of the renderer's entry and files in an undeclared folder", () => {
    expect(messagesFor('src/ui/atlas/AtlasView.tsx')).toContain("the renderer's entry");
    expect(messagesFor('src/ui/gadgets/Gadget.tsx')).toContain('no declared renderer folder');
  });

  it('declares an order without cycles, and finds one when a folder may import a folder above it', () => {
    expect(rendererOrderProblems()).toEqual([]);
    const cyclic = RENDERER_ZONES.map((zone) =>
      zone.folder === 'store' ? { ...zone, mayImport: [...zone.mayImport, 'panels'] } : zone,
    );
    expect(rendererOrderProblems(cyclic)).toEqual([
      'store may import panels, which is not below it (a cycle in the order)',
    ]);
  });
});
