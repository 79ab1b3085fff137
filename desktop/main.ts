import { fileURLToPath } from 'node:url';
import electron from 'electron';
import { resolveWeftHome } from '../runtime/fs/index.ts';
import { startDesktop, type ElectronModule } from './desktop-app.ts';

// Electron main entry (bundled to dist/desktop/main.mjs by desktop/build-desktop.mjs). Logic lives in desktop-app.ts.
const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

startDesktop(electron as unknown as ElectronModule, {
  home: resolveWeftHome(),
  staticDir: here('../ui/'),
  preloadPath: here('./preload.cjs'),
  argv: process.argv,
  platform: process.platform,
}).catch((error: unknown) => {
  process.stderr.write(`weft desktop: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  electron.app.exit(1);
});
