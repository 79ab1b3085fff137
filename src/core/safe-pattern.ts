import { CHECK_PATTERN_MAX } from '../../protocol/index.ts';

/** The longest answer a regular expression check reads: beyond it, the check reads this prefix. */
export const PATTERN_INPUT_MAX = 100_000;

export type SafePattern = { ok: true; regex: RegExp } | { ok: false; reason: string };

/**
 * A check's regular expression, or why it is refused. The guard is a **safe subset**, not a time budget (a pure
 * function cannot stop a running match): at most `CHECK_PATTERN_MAX` characters; no backreferences and no
 * lookaround (which defeat linear matching); no group repeated more than once that itself holds a quantifier or an alternation
 * (`(a+)+`, `(a|aa)*` — the shapes of catastrophic backtracking); no quantifier on a quantifier. With these, a
 * match backtracks at most polynomially in the pattern, and the answer read is capped at `PATTERN_INPUT_MAX`.
 */
export function safePattern(pattern: string, ignoreCase = false): SafePattern {
  if (pattern.length === 0 || pattern.length > CHECK_PATTERN_MAX) {
    return { ok: false, reason: `a pattern is 1 to ${CHECK_PATTERN_MAX} characters` };
  }
  const refused = unsafeShape(pattern);
  if (refused) return { ok: false, reason: refused };
  try {
    return { ok: true, regex: new RegExp(pattern, ignoreCase ? 'iu' : 'u') };
  } catch (error) {
    return { ok: false, reason: `not a regular expression: ${(error as Error).message}` };
  }
}

const QUANTIFIER = /^(?:[*+?]|\{\d+(?:,\d*)?\})/;

/** Whether a quantifier can repeat its atom more than once (`?`, `{0,1}` and `{1}` cannot). */
function repeats(quantifier: string): boolean {
  return !/^(?:\?|\{0,1\}|\{1\}|\{1,1\})$/.test(quantifier);
}

/** Why a pattern is outside the safe subset, or null. Walks it once, tracking groups and character classes. */
function unsafeShape(pattern: string): string | null {
  // Per open group: whether it holds a quantifier or an alternation so far.
  const groups: { risky: boolean }[] = [];
  let inClass = false;
  let lastWasQuantifier = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return 'backreferences are not allowed';
      index += 1;
      lastWasQuantifier = false;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') {
      inClass = true;
      lastWasQuantifier = false;
      continue;
    }
    if (char === '(') {
      if (/^\(\?<?[=!]/.test(pattern.slice(index))) return 'lookaround is not allowed';
      groups.push({ risky: false });
      lastWasQuantifier = false;
      continue;
    }
    if (char === '|') {
      if (groups.length > 0) groups[groups.length - 1]!.risky = true;
      continue;
    }
    if (char === ')') {
      const closed = groups.pop();
      if (!closed) return 'unbalanced parentheses';
      const quantified = QUANTIFIER.exec(pattern.slice(index + 1));
      if (quantified && repeats(quantified[0]) && closed.risky)
        return 'a repeated group may not hold a repetition or an alternation';
      // A group that holds risk passes it to its parent, so ((a+)) + is caught too.
      if (closed.risky && groups.length > 0) groups[groups.length - 1]!.risky = true;
      lastWasQuantifier = false;
      continue;
    }
    const quantified = QUANTIFIER.exec(pattern.slice(index));
    if (quantified) {
      if (lastWasQuantifier) return 'a repetition may not be repeated';
      if (groups.length > 0) groups[groups.length - 1]!.risky = true;
      index += quantified[0].length - 1;
      // A lazy or possessive mark after a quantifier is part of it.
      if (pattern[index + 1] === '?') index += 1;
      lastWasQuantifier = true;
      continue;
    }
    lastWasQuantifier = false;
  }
  if (groups.length > 0) return 'unbalanced parentheses';
  return null;
}
