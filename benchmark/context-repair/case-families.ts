import type { ComputedVariable, Operator, Variable } from './arithmetic.ts';
import type { SeededRandom } from './seeded-random.ts';

export type LinkKind = 'solid' | 'quote' | 'full';

/** The dependency graph of one case before pollution: which variable is the source and which the target. */
export interface CaseShape {
  variables: Variable[];
  /** Wires between computed variables (input → consumer); every consumer's other inputs are solid. */
  dashed: { from: string; to: string; kind: Exclude<LinkKind, 'solid'> }[];
  source: string;
  target: string;
}

/** Hands out variable names and formulas in definition order. */
class ShapeBuilder {
  readonly variables: Variable[] = [];
  private readonly names = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

  constructor(private readonly random: SeededRandom) {}

  private nextName(): string {
    const name = this.names[this.variables.length];
    if (!name) throw new Error('a case has at most 24 variables');
    return name;
  }

  given(): string {
    const name = this.nextName();
    this.variables.push({ name, kind: 'given', value: this.random.integer(2, 20) });
    return name;
  }

  /** One input with an operator and a constant; `*` keeps the constant small so values stay readable. */
  step(input: string, operator: Operator = this.random.pick(['+', '-', '+'] as const)): string {
    const constant = operator === '*' ? this.random.integer(2, 3) : this.random.integer(1, 9);
    return this.add([input], operator, constant);
  }

  /** A sum of several inputs, plus a constant. */
  sum(inputs: string[]): string {
    return this.add(inputs, '+', this.random.integer(0, 5));
  }

  private add(inputs: string[], operator: Operator, constant: number): string {
    const name = this.nextName();
    const variable: ComputedVariable = { name, kind: 'computed', formula: { inputs, operator, constant } };
    this.variables.push(variable);
    return name;
  }

  chain(from: string, length: number, operator?: Operator): string {
    let last = from;
    for (let step = 0; step < length; step += 1) last = this.step(last, operator);
    return last;
  }
}

type Family = (random: SeededRandom, depth: number) => CaseShape;

function branches(count: number): Family {
  return (random, depth) => {
    const builder = new ShapeBuilder(random);
    const given = builder.given();
    const source = builder.step(given);
    const ends = new Set<string>();
    for (let branch = 0; branch < count; branch += 1) ends.add(builder.chain(source, depth - 1));
    // At depth 1 every branch is the source itself: the given joins so the target still reads two inputs.
    const target = builder.sum(ends.size === 1 ? [...ends, given] : [...ends]);
    return { variables: builder.variables, dashed: [], source, target };
  };
}

function reference(kind: 'quote' | 'full'): Family {
  return (random, depth) => {
    const builder = new ShapeBuilder(random);
    const first = builder.given();
    const second = builder.given();
    const source = builder.step(first);
    const end = builder.chain(source, depth - 1);
    const clean = builder.chain(second, 2);
    const target = builder.sum([end, clean]);
    return { variables: builder.variables, dashed: [{ from: end, to: target, kind }], source, target };
  };
}

/**
 * Nine families of arithmetic dependency graphs. `depth` is the longest path from the polluted source
 * to the target (1 = the target reads the source directly).
 */
export const FAMILIES: Readonly<Record<string, Family>> = {
  chain(random, depth) {
    const builder = new ShapeBuilder(random);
    const source = builder.step(builder.given());
    const end = builder.chain(source, depth - 1);
    const target = builder.step(end);
    return { variables: builder.variables, dashed: [], source, target };
  },
  diamond: branches(2),
  'fan-out': branches(3),
  'fan-in'(random, depth) {
    const builder = new ShapeBuilder(random);
    const [first, second, third] = [builder.given(), builder.given(), builder.given()];
    const source = builder.step(first);
    const end = builder.chain(source, depth - 1);
    const left = builder.step(second);
    const right = builder.step(third, '*');
    const target = builder.sum([end, left, right]);
    return { variables: builder.variables, dashed: [], source, target };
  },
  'quote-reference': reference('quote'),
  'full-reference': reference('full'),
  skip(random, depth) {
    const builder = new ShapeBuilder(random);
    const given = builder.given();
    const source = builder.step(given);
    const end = builder.chain(source, depth - 1);
    const target = builder.sum(end === source ? [source, given] : [source, end]);
    return { variables: builder.variables, dashed: [], source, target };
  },
  'deep-prefix'(random, depth) {
    const builder = new ShapeBuilder(random);
    const prefix = builder.chain(builder.given(), 3);
    const source = builder.step(prefix);
    const end = builder.chain(source, depth - 1);
    const target = builder.step(end);
    return { variables: builder.variables, dashed: [], source, target };
  },
  products(random, depth) {
    const builder = new ShapeBuilder(random);
    const source = builder.step(builder.given(), '*');
    const end = builder.chain(source, depth - 1, '*');
    const target = builder.step(end, '+');
    return { variables: builder.variables, dashed: [], source, target };
  },
};

export const FAMILY_NAMES = Object.keys(FAMILIES);
export const DEPTHS = [1, 2, 3] as const;
