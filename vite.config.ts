import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The renderer lives in src/ui; the server serves the build from <repo>/dist/ui.
const repoRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: `${repoRoot}src/ui`,
  base: './',
  plugins: [react()],
  build: {
    outDir: `${repoRoot}dist/ui`,
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: { host: '127.0.0.1' },
});
