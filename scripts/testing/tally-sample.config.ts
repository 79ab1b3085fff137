import { defineConfig } from 'vitest/config';

// The sample run scripts/test-tally.test.ts makes: only the one fixture, reported by the tally reporter.
export default defineConfig({
  test: { include: ['scripts/testing/tally-sample.fixture.ts'], reporters: ['./scripts/test-tally-reporter.mjs'] },
});
