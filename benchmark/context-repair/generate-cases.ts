import { hashCanonical } from '../../src/core/index.ts';
import { evaluate } from './arithmetic.ts';
import { DEPTHS, FAMILIES, FAMILY_NAMES, type CaseShape } from './case-families.ts';
import { cellSeed, SeededRandom } from './seeded-random.ts';

/** Bumped whenever generation changes, so a run's traces always name the case set they answer. */
export const GENERATOR_VERSION = 1;
export const DEFAULT_SEED = 20261201;
/** 9 families × 3 depths × 6 = 162 cases per condition (≥ 155: see README, "Power"). */
export const DEFAULT_PER_CELL = 6;

export interface BenchCase extends CaseShape {
  id: string;
  family: string;
  depth: number;
  /** The wrong answer written into the source in every polluted condition. */
  pollutedValue: number;
  /** The target's correct value. */
  gold: number;
  /** The exact target value the pollution implies (what adopting it gives). */
  wrong: number;
  /** Computed variables downstream of the source and upstream of the target (the target excluded). */
  contaminated: string[];
}

export interface CaseSet {
  generatorVersion: number;
  seed: number;
  perCell: number;
  cases: BenchCase[];
  /** SHA-256 of the canonical case list: the identity of the set. */
  hash: string;
}

/** Variables reachable from `source` through formula inputs that are also upstream of `target`. */
function contaminatedBetween(shape: CaseShape): string[] {
  const downstream = new Set([shape.source]);
  const upstream = new Set([shape.target]);
  for (const variable of shape.variables)
    if (variable.kind === 'computed' && variable.formula.inputs.some((input) => downstream.has(input)))
      downstream.add(variable.name);
  for (const variable of [...shape.variables].reverse())
    if (upstream.has(variable.name) && variable.kind === 'computed')
      for (const input of variable.formula.inputs) upstream.add(input);
  return shape.variables
    .map((variable) => variable.name)
    .filter((name) => name !== shape.source && name !== shape.target && downstream.has(name) && upstream.has(name));
}

function generateCase(family: string, familyIndex: number, depth: number, index: number, seed: number): BenchCase {
  const random = new SeededRandom(cellSeed(seed, familyIndex, depth, index));
  const shape = FAMILIES[family]!(random, depth);
  const gold = evaluate(shape.variables);
  const sourceValue = gold.get(shape.source)!;
  const goldTarget = gold.get(shape.target)!;
  // A wrong value that changes the target (re-drawn until it does) and stays a positive whole number.
  for (;;) {
    const delta = random.pick([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const pollutedValue = sourceValue + delta;
    if (pollutedValue <= 0) continue;
    const wrong = evaluate(shape.variables, { name: shape.source, value: pollutedValue }).get(shape.target)!;
    if (wrong === goldTarget) continue;
    return {
      ...shape,
      id: `${family}-d${depth}-${String(index).padStart(2, '0')}`,
      family,
      depth,
      pollutedValue,
      gold: goldTarget,
      wrong,
      contaminated: contaminatedBetween(shape),
    };
  }
}

/** Every family × depth × `perCell` cases, deterministic in `seed`. */
export function generateCases(options: { seed?: number; perCell?: number } = {}): CaseSet {
  const seed = options.seed ?? DEFAULT_SEED;
  const perCell = options.perCell ?? DEFAULT_PER_CELL;
  const cases: BenchCase[] = [];
  FAMILY_NAMES.forEach((family, familyIndex) => {
    for (const depth of DEPTHS)
      for (let index = 0; index < perCell; index += 1)
        cases.push(generateCase(family, familyIndex, depth, index, seed));
  });
  const hash = hashCanonical({ generatorVersion: GENERATOR_VERSION, seed, perCell, cases });
  return { generatorVersion: GENERATOR_VERSION, seed, perCell, cases, hash };
}
