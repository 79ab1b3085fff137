/**
 * The arithmetic of a case: givens, and computed variables each defined by one formula over earlier
 * variables. Text forms are shared by the generator and the canvas builder; the scripted models parse
 * the compiled request on their own (`scripted-models.ts`), never these objects.
 */
export type Operator = '+' | '-' | '*';

export interface Formula {
  /** Variables combined left to right with `operator`, then the constant (when non-zero). */
  inputs: string[];
  operator: Operator;
  constant: number;
}

export interface GivenVariable {
  name: string;
  kind: 'given';
  value: number;
}

export interface ComputedVariable {
  name: string;
  kind: 'computed';
  formula: Formula;
}

export type Variable = GivenVariable | ComputedVariable;

export function formulaText(formula: Formula): string {
  const terms = formula.inputs.join(` ${formula.operator} `);
  return formula.constant === 0 ? terms : `${terms} ${formula.operator} ${formula.constant}`;
}

function combine(left: number, operator: Operator, right: number): number {
  return operator === '+' ? left + right : operator === '-' ? left - right : left * right;
}

/**
 * Every variable's value, in definition order; `override` replaces one variable's value as the
 * pollution does, so what follows is computed from the wrong value.
 */
export function evaluate(
  variables: readonly Variable[],
  override?: { name: string; value: number },
): Map<string, number> {
  const values = new Map<string, number>();
  for (const variable of variables) {
    if (override && variable.name === override.name) {
      values.set(variable.name, override.value);
      continue;
    }
    if (variable.kind === 'given') {
      values.set(variable.name, variable.value);
      continue;
    }
    const [first, ...rest] = variable.formula.inputs.map((input) => {
      const value = values.get(input);
      if (value === undefined) throw new Error(`${variable.name} uses ${input} before it is defined`);
      return value;
    });
    let value = first!;
    for (const next of rest) value = combine(value, variable.formula.operator, next);
    if (variable.formula.constant !== 0) value = combine(value, variable.formula.operator, variable.formula.constant);
    values.set(variable.name, value);
  }
  return values;
}
