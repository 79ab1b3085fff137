import { describe, expect, it } from 'vitest';
import {
  binomialCdf,
  clopperPearson,
  holm,
  mcnemarExact,
  mcnemarSampleSize,
  normalQuantile,
  wilson,
} from './statistics.ts';

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
});
