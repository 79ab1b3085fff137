import { TestCanvas } from '../../src/core/index.ts';
import { evaluate, formulaText, type Variable } from './arithmetic.ts';
import type { BenchCase } from './generate-cases.ts';

export interface CaseCanvas {
  canvas: TestCanvas;
  /** Node id of each computed variable's question. */
  nodeOf: Map<string, string>;
  definitionsId: string;
  targetId: string;
}

export function definitionsText(variables: readonly Variable[]): string {
  const lines = variables.map((variable) =>
    variable.kind === 'given'
      ? `${variable.name} = ${variable.value}`
      : `${variable.name} = ${formulaText(variable.formula)}`,
  );
  return ['Definitions (exact):', ...lines].join('\n');
}

/** Every question asks for the number only: the target's and each one a Replay re-asks (`recompute-descendants`). */
export function questionText(variable: Variable): string {
  if (variable.kind !== 'computed') throw new Error(`${variable.name} is a given, not a question`);
  return `What is ${variable.name}? ${variable.name} = ${formulaText(variable.formula)}. Reply with the number only.`;
}

export function answerText(name: string, value: number): string {
  return `${name} = ${value}`;
}

/**
 * The case as a person would build it on the canvas, every step a typed change through core: a definitions
 * note, one question per computed variable wired from its inputs, each answered in definition order (so no
 * answer starts stale). `polluted`: the source's answer is the wrong value and every answer computed after it
 * follows from it, as a model that trusted it would have written.
 */
export function buildCaseCanvas(benchCase: BenchCase, polluted: boolean): CaseCanvas {
  const canvas = new TestCanvas({ idPrefix: 'n' });
  canvas.apply({ type: 'rename-canvas', name: `context-repair ${benchCase.id}` });
  const definitionsId = canvas.addNote(definitionsText(benchCase.variables));
  const nodeOf = new Map<string, string>();
  for (const variable of benchCase.variables) {
    if (variable.kind !== 'computed') continue;
    nodeOf.set(variable.name, canvas.addQuestion(questionText(variable)));
  }
  for (const variable of benchCase.variables) {
    if (variable.kind !== 'computed') continue;
    const to = nodeOf.get(variable.name)!;
    const computedInputs = variable.formula.inputs.filter((input) => nodeOf.has(input));
    if (computedInputs.length === 0) canvas.wire(definitionsId, to);
    for (const input of computedInputs) {
      const dashed = benchCase.dashed.find((link) => link.from === input && link.to === variable.name);
      canvas.wire(nodeOf.get(input)!, to, dashed ? dashed.kind : 'solid');
    }
  }
  const values = evaluate(
    benchCase.variables,
    polluted ? { name: benchCase.source, value: benchCase.pollutedValue } : undefined,
  );
  for (const variable of benchCase.variables) {
    if (variable.kind !== 'computed' || variable.name === benchCase.target) continue;
    canvas.answer(nodeOf.get(variable.name)!, answerText(variable.name, values.get(variable.name)!), {
      model: 'context-repair/case-builder',
    });
  }
  return { canvas, nodeOf, definitionsId, targetId: nodeOf.get(benchCase.target)! };
}
