import type { AnswerCheck, CheckOutcome } from '../../protocol/index.ts';
import { answerValue } from './answer-value.ts';
import { answerJson, schemaViolation, unsupportedKeyword } from './json-schema-check.ts';
import { PATTERN_INPUT_MAX, safePattern } from './safe-pattern.ts';

/** One check's result on one answer: the outcome and a short machine-written note (never the answer's text). */
export interface CheckRun {
  checkId: string;
  kind: AnswerCheck['kind'];
  outcome: CheckOutcome;
  detail: string;
}

/** The check's words, as the card, Compare and Results name it. */
export function checkWords(check: AnswerCheck): string {
  switch (check.kind) {
    case 'contains':
      return `contains “${check.text}”`;
    case 'not-contains':
      return `does not contain “${check.text}”`;
    case 'regex':
      return `matches /${check.pattern}/${check.ignoreCase ? 'i' : ''}`;
    case 'number':
      return check.tolerance > 0 ? `number = ${check.value} ± ${check.tolerance}` : `number = ${check.value}`;
    case 'json':
      return 'valid JSON for the schema';
    case 'rubric':
      return `rubric: ${check.rubric}`;
  }
}

function result(check: AnswerCheck, pass: boolean, detail: string): CheckRun {
  return { checkId: check.id, kind: check.kind, outcome: pass ? 'pass' : 'fail', detail };
}

function refused(check: AnswerCheck, detail: string): CheckRun {
  return { checkId: check.id, kind: check.kind, outcome: 'error', detail };
}

function includes(answer: string, text: string, caseSensitive: boolean | undefined): boolean {
  return caseSensitive ? answer.includes(text) : answer.toLowerCase().includes(text.toLowerCase());
}

/**
 * Runs one check that needs no model on an answer's text. Pure and deterministic: the same check on the same text
 * always gives the same result, and nothing here reads or changes a request or a fingerprint. A `rubric` needs the
 * decision model, so it returns null here (the store asks the server's judge).
 */
export function runCheck(check: AnswerCheck, answer: string): CheckRun | null {
  switch (check.kind) {
    case 'contains': {
      const found = includes(answer, check.text, check.caseSensitive);
      return result(check, found, found ? 'found' : 'not found');
    }
    case 'not-contains': {
      const found = includes(answer, check.text, check.caseSensitive);
      return result(check, !found, found ? 'found' : 'not found');
    }
    case 'regex': {
      const pattern = safePattern(check.pattern, check.ignoreCase);
      if (!pattern.ok) return refused(check, pattern.reason);
      const matched = pattern.regex.test(answer.slice(0, PATTERN_INPUT_MAX));
      return result(check, matched, matched ? 'matched' : 'no match');
    }
    case 'number': {
      const value = answerValue(answer);
      if (value === null) return result(check, false, 'no number');
      return result(check, Math.abs(value - check.value) <= check.tolerance, `read ${value}`);
    }
    case 'json': {
      const unsupported = unsupportedKeyword(check.schema);
      if (unsupported) return refused(check, `schema keyword not supported: ${unsupported}`);
      const parsed = answerJson(answer);
      if (!parsed.ok) return result(check, false, 'not JSON');
      const violation = schemaViolation(parsed.value, check.schema);
      return result(check, violation === null, violation ?? 'valid');
    }
    case 'rubric':
      return null;
  }
}
