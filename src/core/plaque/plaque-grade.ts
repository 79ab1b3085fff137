import type { Plaque, PlaqueConclusiveness, PlaqueSummaryType } from '../../../protocol/index.ts';
import type { CheckedLadder } from './validate-ladder.ts';

/** #29: a plaque's summary type and conclusiveness, shown in map mode and never sent (C32: display-only). */
export interface PlaqueGrade {
  summaryType: PlaqueSummaryType;
  conclusiveness: PlaqueConclusiveness;
}

const SUMMARY_TYPES: readonly PlaqueSummaryType[] = [
  'finding',
  'recommendation',
  'explanation',
  'procedure',
  'comparison',
];
const CONCLUSIVENESS: readonly PlaqueConclusiveness[] = ['settled', 'tentative', 'open'];

// Word lists the rule reads (English; a text with none of them is a settled finding).
const OPEN =
  /\b(unclear|unknown|undecided|unresolved|it depends|depends on|not sure|no way to (?:know|tell)|cannot (?:say|tell)|can't (?:say|tell)|open question|remains to be seen|to be determined|tbd)\b/i;
const HEDGE =
  /\b(may|might|could|possibly|probably|perhaps|likely|unlikely|seems?|appears?|suggests?|i think|i believe|roughly|not certain|uncertain|in principle|tends? to|should work)\b/i;
const COMPARISON =
  /\b(vs\.?|versus|compared (?:to|with)|better than|worse than|faster than|slower than|whereas|trade-?offs?|instead of)\b/i;
const PROCEDURE = /^(?:\s*(?:\d+[.)]|[-*]|step \d+)\s+\S.*\n){2,}/im;
const PROCEDURE_WORDS = /\b(first|then|next|finally|step \d+)\b/i;
const RECOMMENDATION = /\b(should|recommend(?:ed|s)?|suggest(?:ed|s)?|best to|better to|you'?d better|i'?d|go with)\b/i;
/** A takeaway opening with an imperative advises. */
const IMPERATIVE = /^(?:use|avoid|consider|prefer|try|keep|add|run|set|pick|choose|switch|move|store|start)\b/i;
const EXPLANATION = /\b(because|since|due to|caused by|the reason|that is why|so that|which means|how it works)\b/i;

/**
 * The rule's grade of a ladder, deterministic: `open` when the takeaway asks a question or the text says it is
 * unresolved, `tentative` when it hedges, else `settled`; the summary type by the first cue found in the order
 * procedure (a numbered or bulleted run of steps, or step words in the takeaway), comparison, recommendation,
 * explanation, else `finding`. `answer` is the whole answer (for a run of steps the abstract may cut).
 */
export function ruleGrade(ladder: Pick<CheckedLadder, 'takeaway' | 'abstract'>, answer = ''): PlaqueGrade {
  const text = [ladder.takeaway, ...ladder.abstract].join('\n');
  const conclusiveness: PlaqueConclusiveness =
    /\?\s*$/.test(ladder.takeaway.trim()) || OPEN.test(text) ? 'open' : HEDGE.test(text) ? 'tentative' : 'settled';
  const summaryType: PlaqueSummaryType =
    PROCEDURE.test(`${answer}\n`) || PROCEDURE_WORDS.test(ladder.takeaway)
      ? 'procedure'
      : COMPARISON.test(text)
        ? 'comparison'
        : RECOMMENDATION.test(ladder.takeaway) || IMPERATIVE.test(ladder.takeaway.trim())
          ? 'recommendation'
          : EXPLANATION.test(text)
            ? 'explanation'
            : 'finding';
  return { summaryType, conclusiveness };
}

/**
 * The grade a model gave with its ladder (`summaryType`, `conclusiveness` in its JSON), each field it left out or
 * named wrongly taken from the rule: a plaque is a courtesy, so a bad grade is not a refused ladder.
 */
export function modelGrade(raw: unknown, rule: PlaqueGrade): PlaqueGrade {
  const fields = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
    typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
  return {
    summaryType: pick(fields.summaryType, SUMMARY_TYPES, rule.summaryType),
    conclusiveness: pick(fields.conclusiveness, CONCLUSIVENESS, rule.conclusiveness),
  };
}

/** A plaque with its grade set. */
export function gradedPlaque(plaque: Plaque, grade: PlaqueGrade): Plaque {
  return { ...plaque, ...grade };
}

/** The grade map mode shows: the plaque's own, or (a plaque from before #29) the rule's over its text. */
export function plaqueGrade(plaque: Plaque): PlaqueGrade {
  const derived = ruleGrade(plaque);
  return {
    summaryType: plaque.summaryType ?? derived.summaryType,
    conclusiveness: plaque.conclusiveness ?? derived.conclusiveness,
  };
}
