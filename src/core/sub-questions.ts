import { FAN_OUT_LIMIT } from './canvas-helpers.ts';

/** The instruction a model gets when asked to propose sub-questions (C33 fan-out), sent as the system message. */
export const FAN_OUT_INSTRUCTION =
  'Propose between three and six sub-questions that together answer the last question. Answer with the sub-questions only, one per line, each ending with a question mark.';

/** Reads a model's proposal: one sub-question per line, list marks and numbering dropped, duplicates removed. */
export function parseSubQuestions(text: string): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw
      .replace(/^\s*(?:[-*•]|\d+[.)]|\(\d+\))\s*/, '')
      .replace(/^\*\*|\*\*$/g, '')
      .trim();
    if (line.length < 3 || !line.endsWith('?')) continue;
    const key = line.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(line);
    if (found.length === FAN_OUT_LIMIT) break;
  }
  return found;
}

/**
 * The rule fallback when no model can propose (the offline receipt model): a question that already holds
 * several questions or listed parts is split into them; a single question gets the four standard angles —
 * meaning, evidence, alternatives, consequences — on its subject.
 */
export function ruleSubQuestions(question: string): string[] {
  const text = question.replace(/\s+/g, ' ').trim();
  if (text === '') return [];
  const asked = text
    .split(/(?<=\?)\s+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (asked.length > 1) return asked.slice(0, FAN_OUT_LIMIT).map(asQuestion);
  const subject = text.replace(/[?.!]+$/, '');
  const parts = subject.split(/\s*(?:;|,?\s+and\s+|,?\s+or\s+)\s*/i).filter((part) => part.split(' ').length >= 2);
  if (parts.length > 1 && parts.length <= FAN_OUT_LIMIT) return parts.map(asQuestion);
  return [
    `What exactly is meant by: ${subject}?`,
    `What evidence bears on: ${subject}?`,
    `What are the main alternatives to consider for: ${subject}?`,
    `What follows if we answer: ${subject}?`,
  ];
}

function asQuestion(part: string): string {
  const trimmed = part.replace(/[.!]+$/, '').trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return capital.endsWith('?') ? capital : `${capital}?`;
}
