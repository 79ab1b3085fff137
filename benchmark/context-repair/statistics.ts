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
