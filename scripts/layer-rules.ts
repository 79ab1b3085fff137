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

/** A folder of the renderer (`src/ui/<folder>/`) and the renderer folders it may import besides itself. */
export interface RendererZone {
  folder: string;
  mayImport: string[];
  why: string;
}

/** The renderer, a zone above, is split into these folders; a file directly in `src/ui/` is its entry. */
export const RENDERER_PREFIX = 'src/ui/';
/** `main.tsx` and `index.ts`: they assemble the app, so they may import every folder and nothing imports them. */
export const RENDERER_ENTRY = '(entry)';

// Lowest first. The plumbing below the features is a line: each folder may import every one before it.
export const RENDERER_PLUMBING = ['tokens', 'db', 'api', 'store', 'commands', 'kit'];
const PLUMBING = RENDERER_PLUMBING;
const below = (folder: string) => PLUMBING.slice(0, PLUMBING.indexOf(folder));

export const RENDERER_ZONES: RendererZone[] = [
  { folder: 'tokens', mayImport: below('tokens'), why: 'token counts per model need only core' },
  { folder: 'db', mayImport: below('db'), why: 'the Dexie schema and per-record persistence know no client or state' },
  { folder: 'api', mayImport: below('api'), why: 'the typed client of the local server knows no state or view' },
  {
    folder: 'store',
    mayImport: below('store'),
    why: 'the store holds the state every view reads, so it may not depend on any view',
  },
  { folder: 'commands', mayImport: below('commands'), why: 'commands act on the store and run the same from any view' },
  {
    folder: 'kit',
    mayImport: below('kit'),
    why: 'the React plumbing (store context, hooks, error boundary) is shared by every feature, so it sits below them',
  },
  // The features may use all the plumbing; among themselves, only the imports listed, so the order stays a tree.
  { folder: 'atlas', mayImport: PLUMBING, why: 'the Session Atlas and Why panel stand on their own' },
  { folder: 'recall', mayImport: PLUMBING, why: 'the recall plan hook stands on its own' },
  { folder: 'ask-canvas', mayImport: PLUMBING, why: 'Ask the canvas stands on its own beside the canvas' },
  { folder: 'agents', mayImport: [...PLUMBING, 'atlas'], why: 'the agent lane shows its turns with Atlas links' },
  {
    folder: 'canvas',
    mayImport: [...PLUMBING, 'agents', 'atlas'],
    why: 'cards show agent approvals and mirror marks, so the canvas sits above agents and atlas',
  },
  {
    folder: 'panels',
    mayImport: [...PLUMBING, 'agents', 'atlas', 'canvas', 'recall'],
    why: "the node panel shows a card's answer, agent lane, Why links and recall, so it sits above them",
  },
  {
    folder: 'memory',
    mayImport: [...PLUMBING, 'atlas', 'panels'],
    why: 'the Memory page opens citations in the Atlas and downloads through the panels',
  },
  {
    folder: 'app',
    mayImport: [...PLUMBING, 'atlas', 'recall', 'ask-canvas', 'agents', 'canvas', 'panels', 'memory'],
    why: 'the shell lays out every view, so it sits above all of them',
  },
];
