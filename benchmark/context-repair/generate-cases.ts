import { hashCanonical } from '../../src/core/index.ts';
import { evaluate } from './arithmetic.ts';
import { DEPTHS, FAMILIES, FAMILY_NAMES, type CaseShape } from './case-families.ts';
import { cellSeed, SeededRandom } from './seeded-random.ts';

/**
 * Bumped whenever generation changes, so a run's traces always name the case set they answer. 2: 10 cases per
 * cell, the wrong value drawn from filtered candidates (keeps the source's sign), every question asks for the
 * number only.
 */
export const GENERATOR_VERSION = 2;
export const DEFAULT_SEED = 20261201;
/** 9 families × 3 depths × 6 = 162 cases per condition (≥ 155: see README, "Power"). */
export const DEFAULT_PER_CELL = 10;

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

const POLLUTION_SHIFTS = [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9];

function generateCase(family: string, familyIndex: number, depth: number, index: number, seed: number): BenchCase {
  const random = new SeededRandom(cellSeed(seed, familyIndex, depth, index));
  const shape = FAMILIES[family]!(random, depth);
  const gold = evaluate(shape.variables);
  const sourceValue = gold.get(shape.source)!;
  const goldTarget = gold.get(shape.target)!;
  // The wrong value: a small non-zero shift that keeps the source's sign and changes the target. The candidates
  // are filtered before the draw, so generation always ends (a loop that re-drew until a positive value appeared
  // never ended for a source below −9).
  const candidates = POLLUTION_SHIFTS.map((shift) => sourceValue + shift)
    .filter((value) => Math.sign(value) === Math.sign(sourceValue) || sourceValue === 0)
    .map((pollutedValue) => ({
      pollutedValue,
      wrong: evaluate(shape.variables, { name: shape.source, value: pollutedValue }).get(shape.target)!,
    }))
    .filter((candidate) => candidate.wrong !== goldTarget);
  if (candidates.length === 0)
    throw Object.assign(new Error(`${family} depth ${depth} #${index}: no wrong value changes the target`), {
      code: 'case-unpollutable',
    });
  const { pollutedValue, wrong } = random.pick(candidates);
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
