import { expect, it } from 'vitest';

// Run by scripts/test-tally.test.ts through scripts/testing/tally-sample.config.ts: one test of each outcome.
it('passes', () => expect(1 + 1).toBe(2));
it('fails', () => expect(1 + 1).toBe(3));
it('skips with a reason', (context) => {
  context.skip('the pinned CLIs are not installed');
});
it.skip('is skipped by its flag', () => {});
it.todo('is still to write');
