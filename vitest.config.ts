import { defineConfig } from 'vitest/config';

// Unit and integration tests live beside the code as `*.test.ts(x)`; browser e2e lives in `e2e/`
// and runs in its own project so `npm test` can order them (unit first, then the built app).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['{protocol,src,runtime,server,cli,desktop,benchmark,scripts,tests}/**/*.test.{ts,tsx}'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
