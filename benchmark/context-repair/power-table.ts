/**
 * `npx tsx benchmark/context-repair/power-table.ts` — the power calculation behind `DEFAULT_PER_CELL` (README,
 * "Power"): exact McNemar power for a 10-point paired difference at each whole-cell size, at α = 0.05 and at
 * Holm's strictest level α/6 (six comparisons against `polluted`), and the smallest sizes that reach 80%.
 */
import { DEPTHS, FAMILY_NAMES } from './case-families.ts';
import { DEFAULT_PER_CELL } from './generate-cases.ts';
import { mcnemarExactPower, mcnemarExactSampleSize } from './statistics.ts';

/** 15% of pairs right only under the condition, 5% only under `polluted`: a 10-point difference, 20% discordant. */
export const POWER_ASSUMPTION = { better: 0.15, worse: 0.05, comparisons: 6, alpha: 0.05, power: 0.8 } as const;

const cell = FAMILY_NAMES.length * DEPTHS.length;
const { better, worse, comparisons, alpha, power } = POWER_ASSUMPTION;
console.log(`discordant: ${better} for the condition, ${worse} against; exact McNemar, two-sided`);
console.log('per cell | pairs | power at α = 0.05 | power at α/6 (Holm)');
for (let perCell = 5; perCell <= 12; perCell += 1) {
  const pairs = perCell * cell;
  const plain = mcnemarExactPower(pairs, better, worse, alpha);
  const strict = mcnemarExactPower(pairs, better, worse, alpha / comparisons);
  const mark = perCell === DEFAULT_PER_CELL ? '  ← DEFAULT_PER_CELL' : '';
  console.log(`${perCell} | ${pairs} | ${(plain * 100).toFixed(1)}% | ${(strict * 100).toFixed(1)}%${mark}`);
}
const needed = (level: number) => mcnemarExactSampleSize(better, worse, { alpha: level, power, step: cell });
console.log(`smallest whole-cell size at α = 0.05: ${needed(alpha)} pairs`);
console.log(`smallest whole-cell size at α/${comparisons}: ${needed(alpha / comparisons)} pairs`);
