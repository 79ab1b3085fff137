/** Small exact and interval statistics for the scorer; each checked against published values in its test. */

function logGamma(x: number): number {
  // Lanczos (g = 7, n = 9): accurate to ~1e-15 for x > 0.
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = c[0]!;
  for (let index = 1; index < 9; index += 1) sum += c[index]! / (shifted + index);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

function logChoose(n: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/** P(X ≤ k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let total = 0;
  for (let i = 0; i <= k; i += 1) total += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log(1 - p));
  return Math.min(1, total);
}

/** The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const poly = (coefficients: number[], x: number) => coefficients.reduce((sum, value) => sum * x + value, 0);
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval for k successes in n (95% by default). */
export function wilson(k: number, n: number, confidence = 0.95): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Clopper–Pearson exact interval, by bisection on the binomial tails. */
export function clopperPearson(k: number, n: number, confidence = 0.95): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const alpha = (1 - confidence) / 2;
  const solve = (test: (p: number) => boolean) => {
    let lowP = 0;
    let highP = 1;
    for (let step = 0; step < 60; step += 1) {
      const middle = (lowP + highP) / 2;
      if (test(middle)) highP = middle;
      else lowP = middle;
    }
    return (lowP + highP) / 2;
  };
  // Lower bound: P(X ≥ k | p) = alpha; upper bound: P(X ≤ k | p) = alpha.
  const low = k === 0 ? 0 : solve((p) => 1 - binomialCdf(k - 1, n, p) >= alpha);
  const high = k === n ? 1 : solve((p) => binomialCdf(k, n, p) <= alpha);
  return { low, high };
}

/** Exact (binomial) two-sided McNemar test on the discordant pairs b and c. */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialCdf(Math.min(b, c), n, 0.5));
}

/** Holm's step-down adjustment: adjusted p-values in the input order. */
export function holm(pValues: readonly number[]): number[] {
  const order = pValues.map((p, index) => ({ p, index })).sort((left, right) => left.p - right.p);
  const adjusted = new Array<number>(pValues.length);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

/**
 * Pairs needed for a two-sided McNemar test to detect a difference `delta` in paired proportions with
 * discordant proportion `discordant` (Connor 1987): n = (z_{α/2}·√ψ + z_β·√(ψ − δ²))² / δ².
 */
export function mcnemarSampleSize(delta: number, discordant: number, alpha = 0.05, power = 0.8): number {
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  return Math.ceil((za * Math.sqrt(discordant) + zb * Math.sqrt(discordant - delta * delta)) ** 2 / (delta * delta));
}

function binomialPmf(i: number, n: number, p: number): number {
  return Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log(1 - p));
}

/** The largest k whose two-sided exact McNemar p-value (b = k of d discordant pairs) is at most `alpha`, or -1. */
function mcnemarCriticalCount(discordant: number, alpha: number): number {
  let k = -1;
  let tail = 0;
  // The tail grows one term at a time, so the search is linear in d.
  while (k + 1 < discordant / 2) {
    tail += binomialPmf(k + 1, discordant, 0.5);
    if (2 * tail > alpha) break;
    k += 1;
  }
  return k;
}

/**
 * Exact power of the two-sided exact McNemar test over `pairs` pairs, when a pair is discordant in favour of the
 * condition with probability `better` and against it with probability `worse` (a 10-point difference with 20%
 * discordance: 0.15 and 0.05). The number of discordant pairs is Binomial(pairs, better + worse); given d of them,
 * the favourable count is Binomial(d, better / (better + worse)); the test rejects when the favourable count is at
 * most k or at least d − k, k the critical count at `alpha`. Summed exactly over d: no normal approximation.
 */
export function mcnemarExactPower(pairs: number, better: number, worse: number, alpha = 0.05): number {
  const discordance = better + worse;
  if (!(better > 0 && worse >= 0 && discordance < 1)) throw new Error('discordant proportions must lie in (0, 1)');
  const share = better / discordance;
  let power = 0;
  for (let d = 1; d <= pairs; d += 1) {
    const k = mcnemarCriticalCount(d, alpha);
    if (k < 0) continue;
    // P(b ≤ k) + P(b ≥ d − k) for b ~ Binomial(d, share).
    let reject = 0;
    for (let b = 0; b <= k; b += 1) reject += binomialPmf(b, d, share) + binomialPmf(d - b, d, share);
    power += binomialPmf(d, pairs, discordance) * reject;
  }
  return power;
}

/**
 * The smallest number of pairs, a multiple of `step` (the benchmark adds whole family × depth cells), whose exact
 * McNemar power reaches `power` at `alpha`. Exact power saw-tooths in n, so the answer is also checked at the next
 * two multiples: the size returned keeps the target there too.
 */
export function mcnemarExactSampleSize(
  better: number,
  worse: number,
  options: { alpha?: number; power?: number; step?: number; maximum?: number } = {},
): number {
  const { alpha = 0.05, power = 0.8, step = 1, maximum = 5000 } = options;
  for (let pairs = step; pairs <= maximum; pairs += step)
    if ([0, 1, 2].every((ahead) => mcnemarExactPower(pairs + ahead * step, better, worse, alpha) >= power))
      return pairs;
  throw new Error(`more than ${maximum} pairs are needed`);
}
