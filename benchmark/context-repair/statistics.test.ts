import { describe, expect, it } from 'vitest';
import {
  binomialCdf,
  clopperPearson,
  holm,
  mcnemarExact,
  mcnemarExactPower,
  mcnemarExactSampleSize,
  mcnemarSampleSize,
  normalQuantile,
  wilson,
} from './statistics.ts';
import { DEPTHS, FAMILY_NAMES } from './case-families.ts';
import { DEFAULT_PER_CELL } from './generate-cases.ts';
import { SeededRandom } from './seeded-random.ts';

describe('scorer statistics', () => {
  it('normal quantiles and binomial tails match tables', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(binomialCdf(3, 10, 0.5)).toBeCloseTo(176 / 1024, 12);
  });

  it('Wilson and Clopper–Pearson intervals match published values', () => {
    // 81 of 263 (Wilson 1927 as tabulated by Newcombe 1998): 0.2553–0.3662.
    const interval = wilson(81, 263);
    expect(interval.low).toBeCloseTo(0.2553, 3);
    expect(interval.high).toBeCloseTo(0.3662, 3);
    // 0 of 10: the exact upper bound is 1 − 0.025^(1/10) = 0.3085.
    expect(clopperPearson(0, 10).high).toBeCloseTo(0.3085, 3);
    const exact = clopperPearson(5, 10);
    expect(exact.low).toBeCloseTo(0.1871, 3);
    expect(exact.high).toBeCloseTo(0.8129, 3);
  });

  it('the exact McNemar test is the two-sided binomial test on discordant pairs', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(10, 0)).toBeCloseTo(2 / 1024, 12);
    expect(mcnemarExact(6, 2)).toBeCloseTo(0.2890625, 10);
  });

  it('Holm adjusts step-down and keeps the order monotone', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.001])).toEqual([0.5, 0.002]);
  });

  it('155 pairs detect a 10-point paired difference at 80% power when 20% of pairs are discordant', () => {
    expect(mcnemarSampleSize(0.1, 0.2)).toBe(155);
  });

  it('exact McNemar power agrees with a seeded simulation of the test', () => {
    const random = new SeededRandom(5);
    const trials = 4000;
    let rejected = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      let better = 0;
      let worse = 0;
      for (let pair = 0; pair < 162; pair += 1) {
        const draw = random.next();
        if (draw < 0.15) better += 1;
        else if (draw < 0.2) worse += 1;
      }
      if (mcnemarExact(better, worse) <= 0.05) rejected += 1;
    }
    // Four binomial standard errors of the simulated rate (≈ 0.0065 each).
    expect(Math.abs(rejected / trials - mcnemarExactPower(162, 0.15, 0.05))).toBeLessThan(0.026);
    // No difference: the exact test's size stays at or below α.
    expect(mcnemarExactPower(162, 0.1, 0.1)).toBeLessThanOrEqual(0.05);
  });

  it('the case set gives 80% exact power for a 10-point difference even at Holm’s strictest level (α/6)', () => {
    const pairs = FAMILY_NAMES.length * DEPTHS.length * DEFAULT_PER_CELL;
    expect(mcnemarExactPower(pairs, 0.15, 0.05, 0.05 / 6)).toBeGreaterThanOrEqual(0.8);
    // 162 pairs (the old size) fell short even at α = 0.05 once the test is exact.
    expect(mcnemarExactPower(162, 0.15, 0.05)).toBeLessThan(0.8);
    // The whole-cell sizes the calculation asks for: 189 at α = 0.05, 270 at α/6, i.e. 10 per cell.
    expect(mcnemarExactSampleSize(0.15, 0.05, { step: 27 })).toBe(189);
    expect(mcnemarExactSampleSize(0.15, 0.05, { step: 27, alpha: 0.05 / 6 })).toBe(pairs);
  });
});
