/**
 * The layer table of docs/architecture.md as data: which folders may import which, and why.
 * `scripts/check-layers.ts` enforces it on every file in the repository.
 */
export interface Zone {
  /** Folder prefix relative to the repository root ('' never matches). */
  prefix: string;
  /** Repository zones this zone may import from (itself included). */
  mayImportZones: string[];
  /** Packages (and `node:` builtins) refused here, with the reason shown in the failure. */
  deniedPackages?: { match: (name: string) => boolean; why: string };
  /** If set, only these packages are allowed (besides test-only packages in test files). */
  allowedPackages?: string[];
  why: string;
}

const nodeBuiltin = (name: string) => name.startsWith('node:') || NODE_BUILTINS.has(name.split('/')[0]!);
const NODE_BUILTINS = new Set([
  'fs',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'https',
  'net',
  'url',
  'util',
  'stream',
  'events',
  'buffer',
  'zlib',
  'readline',
  'worker_threads',
  'process',
  'tty',
  'dns',
  'assert',
  'module',
  'perf_hooks',
]);
const uiPackages = ['react', 'react-dom', '@xyflow/react', 'zustand', 'dexie'];
const isUiPackage = (name: string) => uiPackages.some((p) => name === p || name.startsWith(p + '/'));

/** Packages any test file may use, whatever its zone. */
export const TEST_ONLY_PACKAGES = ['vitest', 'fast-check', 'fake-indexeddb', 'happy-dom', 'playwright-core'];

export const ZONES: Zone[] = [
  {
    prefix: 'protocol/',
    mayImportZones: ['protocol/'],
    allowedPackages: ['zod'],
    why: 'protocol/ holds the wire and file contracts every layer shares, so it depends on nothing but zod',
  },
  {
    prefix: 'src/core/',
    mayImportZones: ['src/core/', 'protocol/'],
    allowedPackages: ['canonicalize', '@noble/hashes'],
    why: 'src/core/ must stay pure and deterministic (no DOM, Node, I/O, clock) so the preview, the request, the CLI and the benchmark compile the same bytes',
  },
  {
    prefix: 'src/ui/',
    mayImportZones: ['src/ui/', 'src/core/', 'protocol/'],
    deniedPackages: {
      match: (name) =>
        nodeBuiltin(name) ||
        name === 'electron' ||
        name === 'express' ||
        name === 'better-sqlite3' ||
        name === 'ai' ||
        name.startsWith('@ai-sdk/'),
      why: 'the renderer runs in a browser and reaches Node capabilities only through the local server',
    },
    why: 'the renderer talks to runtime and server only over HTTP, so the same app runs in Chromium and in Electron',
  },
  {
    prefix: 'runtime/',
    mayImportZones: ['runtime/', 'src/core/', 'protocol/'],
    deniedPackages: {
      match: (name) => isUiPackage(name) || name === 'electron' || name === 'express',
      why: 'runtime/ provides Node capabilities to every surface and must not depend on any one surface',
    },
    why: 'runtime/ is shared by the server, the CLI and the desktop shell, so it may not import any of them',
  },
  {
    prefix: 'server/',
    mayImportZones: ['server/', 'runtime/', 'src/core/', 'protocol/'],
    deniedPackages: {
      match: (name) => isUiPackage(name) || name === 'electron',
      why: 'the server is one API for web and desktop; the UI and Electron sit on top of it',
    },
    why: 'the server maps HTTP to runtime and core; the UI, CLI and desktop shell are its clients',
  },
  {
    prefix: 'cli/',
    mayImportZones: ['cli/', 'runtime/', 'src/core/', 'protocol/'],
    deniedPackages: {
      match: (name) => isUiPackage(name) || name === 'electron' || name === 'express',
      why: 'the CLI runs headless and starts fast',
    },
    why: 'the CLI answers from runtime and core directly, without the server or the UI',
  },
  {
    prefix: 'desktop/',
    mayImportZones: ['desktop/', 'server/', 'runtime/', 'protocol/'],
    deniedPackages: {
      match: isUiPackage,
      why: 'the Electron main process stays thin; the renderer is the same web app',
    },
    why: 'the desktop shell only starts the server and adds native access',
  },
  {
    // Performance harnesses measure the product's real surfaces (server, index, browser), so they may reach them.
    prefix: 'benchmark/',
    mayImportZones: ['benchmark/', 'src/core/', 'runtime/', 'server/', 'protocol/', 'tests/support/'],
    deniedPackages: { match: isUiPackage, why: 'benchmarks drive the UI through a browser, never by importing it' },
    why: "benchmarks compile through the product's own core and runtime, never through UI code",
  },
  { prefix: 'scripts/', mayImportZones: ['*'], why: 'build and CI helpers may use anything (nothing imports them)' },
  { prefix: 'tests/', mayImportZones: ['*'], why: 'shared test support may drive any layer' },
  { prefix: 'e2e/', mayImportZones: ['*'], why: 'browser tests drive the built app' },
  { prefix: 'bin/', mayImportZones: ['bin/', 'cli/'], why: 'the bin entry only starts the CLI' },
];

/** Root files that belong to the build rather than a layer. */
export const ROOT_FILES = new Set([
  'vite.config.ts',
  'vitest.config.ts',
  'electron-builder.config.ts',
  'eslint.config.js',
]);

/** Nothing may import these zones (they sit at the top). */
export const TOP_ZONES = ['scripts/', 'e2e/', 'bin/'];
