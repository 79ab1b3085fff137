import { STALE_MARK } from '../../src/core/index.ts';

/**
 * Two scripted reference models: deterministic programs, not language models. They exist for runs without a
 * provider and for CI, and are never reported as model results. Both read only the request's text:
 * - `scripted/adopt` takes, for every variable, the value its context states last (answers included; a bare
 *   number answering "What is X?" states X) and works out the rest from the definitions' formulas;
 * - `scripted/heed-stale` does the same but skips every value stated under the product's stale mark.
 */
export const SCRIPTED_MODEL_NAMES = ['adopt', 'heed-stale'] as const;
export type ScriptedModelName = (typeof SCRIPTED_MODEL_NAMES)[number];

export interface PlainMessage {
  role: string;
  text: string;
}

const STATEMENT = /^(?:Answer: )?([A-Z]) = (-?\d+)$/;
/** A reply that is only a number (as the target's instruction asks, and as these models answer) states the value asked. */
const BARE_VALUE = /^(?:Answer: )?(-?\d+)$/;
const DEFINITION = /^([A-Z]) = ([A-Z](?: [-+*] (?:[A-Z]|\d+))*)$/;
const QUESTION = /What is ([A-Z])\?/;

function combine(left: number, operator: string, right: number): number {
  return operator === '+' ? left + right : operator === '-' ? left - right : left * right;
}

/** The scripted answer to a request: the target's value as a bare number, or a refusal when it cannot tell. */
export function scriptedAnswer(name: ScriptedModelName, messages: readonly PlainMessage[]): string {
  const stated = new Map<string, number>();
  const formulas = new Map<string, string[]>();
  let asked: string | null = null;
  for (const message of messages) {
    let underMark = false;
    for (const raw of message.text.split('\n')) {
      const line = raw.trim();
      // In the chain the mark is the answer's first line; in a reference block it follows "Answer: ".
      if (line === STALE_MARK || line === `Answer: ${STALE_MARK}`) {
        underMark = true;
        continue;
      }
      // A stale mark covers one answer: it ends where the next entry or the block begins or ends.
      if (/^(Question:|Note:|`{3,})/.test(line)) underMark = false;
      const trusted = !(underMark && name === 'heed-stale');
      const statement = STATEMENT.exec(line);
      if (statement && trusted) stated.set(statement[1]!, Number(statement[2]));
      const bare = BARE_VALUE.exec(line);
      if (bare && asked && trusted) stated.set(asked, Number(bare[1]));
      asked = QUESTION.exec(line)?.[1] ?? (bare || statement ? null : asked);
      const definition = DEFINITION.exec(line.replace(/\.$/, ''));
      if (definition && !statement) formulas.set(definition[1]!, definition[2]!.split(' '));
    }
  }
  const question = QUESTION.exec(messages.filter((message) => message.role === 'user').at(-1)?.text ?? '');
  if (!question) return 'I cannot tell which value is asked for.';
  const resolving = new Set<string>();
  const valueOf = (variable: string): number | null => {
    const known = stated.get(variable);
    if (known !== undefined) return known;
    const tokens = formulas.get(variable);
    if (!tokens || resolving.has(variable)) return null;
    resolving.add(variable);
    const operand = (token: string) => (/^\d+$/.test(token) ? Number(token) : valueOf(token));
    let value = operand(tokens[0]!);
    for (let index = 1; index + 1 < tokens.length && value !== null; index += 2) {
      const right = operand(tokens[index + 1]!);
      value = right === null ? null : combine(value, tokens[index]!, right);
    }
    resolving.delete(variable);
    return value;
  };
  const value = valueOf(question[1]!);
  return value === null ? `I cannot tell what ${question[1]} is.` : String(value);
}
