/**
 * `WEFT_BENCH_QUICK=1`: every benchmark runs at a small scale with a few iterations, in seconds, and still
 * prints every figure line (same names as a full run). `npm test` runs the benchmarks this way so they cannot
 * rot; the values of a quick run say nothing about the targets.
 */
export const QUICK = process.env.WEFT_BENCH_QUICK === '1';

/** `full` in a normal run, `quick` in quick mode. */
export function scale<T>(full: T, quick: T): T {
  return QUICK ? quick : full;
}

/** Says so first, so a quick run's output is never mistaken for a measurement. */
export function announceQuickMode(): void {
  if (QUICK) console.log('quick_mode: 1 flag (small scale: the figures are not measurements)');
}
