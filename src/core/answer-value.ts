import type { CanonicalRequest } from '../../protocol/index.ts';

/**
 * The number a reply gives as its final answer — not simply its first or last number, since models add working
 * ("D = 22 (since C = 14)"), emphasis ("**22**"), decimals ("42.0") and thousands separators ("1,250"). The rule,
 * first match wins:
 * 1. an explicit answer: the last `answer is N` / `answer: N` / `\boxed{N}`;
 * 2. the asked variable's statement: the last `X = N` for the variable asked (when known);
 * 3. the last bold or code span holding a number: its last number;
 * 4. the last number outside parentheses (asides such as "(since C = 14)" are working, not the answer);
 * 5. the last number anywhere.
 * A number is an optional minus sign (`-` or `−`), digits with optional groups of three after commas, and an
 * optional decimal part; "42.0" is 42, "1,250" is 1250, "22.5" stays 22.5 (equal to no whole-number gold).
 * Citation markers — `[1]`, `[12]`, `[1, 2]`, `[2-4]`, `[^3]` — are references, not answers, so "42 (see [1])" is 42;
 * a marker follows some text, so a reply that is only "[42]" is still 42.
 */
const NUMBER = String.raw`[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
// Not inside a word or another number ("H2", "1,25" is no number).
const NUMBER_PATTERN = new RegExp(`(?<![\\w.,])${NUMBER}(?![\\w,]\\d)`, 'g');
const EXPLICIT = new RegExp(
  String.raw`(?:answer\s*(?:is|:|=)\s*[*_\x60]*(?:[A-Za-z]\s*=\s*)?|\\boxed\{\s*)(${NUMBER})`,
  'gi',
);
const EMPHASIS = /\*\*([^*]+)\*\*|__([^_]+)__|`([^`]+)`/g;

function toNumber(text: string): number {
  return Number(text.replace(/−/g, '-').replace(/,/g, ''));
}

function lastNumber(text: string): number | null {
  const found = text.match(NUMBER_PATTERN);
  return found ? toNumber(found[found.length - 1]!) : null;
}

function lastCapture(text: string, pattern: RegExp): string | null {
  let last: string | null = null;
  for (const match of text.matchAll(pattern)) last = match[1] ?? match[2] ?? match[3] ?? last;
  return last;
}

/** Text with parenthesised asides removed (innermost first, so nested ones go too). */
function withoutAsides(text: string): string {
  let current = text;
  for (let previous = ''; previous !== current;) {
    previous = current;
    current = current.replace(/\([^()]*\)/g, ' ');
  }
  return current;
}

// Digits only (superscripts such as "¹" never match NUMBER); ranges and lists of references too.
const CITATION = /(?<=\S[ \t]*)\[\^?\d+(?:\s*[,–-]\s*\d+)*\]/g;

export function answerValue(reply: string, variable?: string | null): number | null {
  const answer = reply.replace(CITATION, ' ');
  const explicit = lastCapture(answer, EXPLICIT);
  if (explicit !== null) return toNumber(explicit);
  const asides = withoutAsides(answer);
  if (variable && /^[A-Za-z]$/.test(variable)) {
    const statement = lastCapture(
      asides,
      new RegExp(`(?<!\\w)${variable}\\s*=\\s*[*_\\x60]*(${NUMBER})(?![\\d,]|\\s*[-+*/×])`, 'g'),
    );
    if (statement !== null) return toNumber(statement);
  }
  const emphasised = lastCapture(asides, EMPHASIS);
  const fromEmphasis = emphasised === null ? null : lastNumber(emphasised);
  if (fromEmphasis !== null) return fromEmphasis;
  return lastNumber(asides) ?? lastNumber(answer);
}

/** The variable a request asks for: the last "What is X?" of its final user message. */
export function askedVariable(request: CanonicalRequest): string | null {
  const text = (request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? [])
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');
  const asked = [...text.matchAll(/What is ([A-Z])\?/g)];
  return asked.length > 0 ? asked[asked.length - 1]![1]! : null;
}
