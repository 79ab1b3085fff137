import { editDistance } from './edit-distance.ts';
import type { RecallVocabulary } from './recall-inputs.ts';

/** At most this many terms go to the index (C16): every content word of an ordinary question fits. */
export const MAX_RECALL_TERMS = 8;

/** English function words: they match everything and say nothing about what was asked. */
const STOP_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has him his how its may new now old see two ' +
    'way who did get let say she too use what when where which why with this that these those from have will ' +
    'would could should there their they them then than into about does your some just also been were more most ' +
    'such only over each make like want need please tell give show know here very much many other same while ' +
    // Words about the asking itself ("what did we conclude about…"): they name no subject of the turns sought.
    'conclude concluded decide decided remember recall discuss discussed talk talked said think thought again ' +
    'earlier before last time agreed'
  ).split(' '),
);

/** Particles and function words CJK runs are split on (Chinese, Japanese, Korean). */
const CJK_FUNCTION_WORDS = /[的了是在和与吗呢吧把被就也都而及或之么のはをがにでともへやかな이가은는을를에의도와과]/u;

const TOKEN = /[\p{L}\p{N}_]+/gu;
const LATIN_WORD = /^(?=.*\p{Script=Latin})[\p{Script=Latin}\p{N}_]+$/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

export interface RecallTerms {
  /** The terms looked up, in the order the question has them. */
  terms: string[];
  /** Words the index did not know, replaced by the nearest word it does. */
  corrections: { from: string; to: string }[];
}

interface Candidate {
  term: string;
  position: number;
  cjk: boolean;
}

/** Words the question holds, in order, once each: Latin words of three or more characters and CJK runs. */
function candidateTerms(question: string): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<string>();
  const add = (term: string, position: number, cjk: boolean) => {
    if (seen.has(term)) return;
    seen.add(term);
    found.push({ term, position, cjk });
  };
  const text = question.normalize('NFKC');
  for (const match of text.matchAll(TOKEN)) {
    const word = match[0].toLowerCase();
    if ([...word].length >= 3 && LATIN_WORD.test(word) && !STOP_WORDS.has(word)) add(word, match.index, false);
  }
  for (const match of text.matchAll(CJK_RUN)) {
    let offset = 0;
    for (const piece of match[0].split(CJK_FUNCTION_WORDS)) {
      if ([...piece].length >= 2) add(piece, match.index + offset, true);
      offset += piece.length + 1;
    }
  }
  return found.sort((left, right) => left.position - right.position);
}

/** The nearest known word within one edit (short words) or two, most frequent first, then alphabetical. */
function correct(term: string, vocabulary: RecallVocabulary): string | null {
  const limit = [...term].length <= 5 ? 1 : 2;
  let best: { word: string; distance: number; frequency: number } | null = null;
  for (const word of vocabulary.neighbours(term)) {
    const distance = editDistance(term, word, limit);
    if (distance > limit || distance === 0) continue;
    const frequency = vocabulary.frequency(word);
    if (frequency <= 0) continue;
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance && frequency > best.frequency) ||
      (distance === best.distance && frequency === best.frequency && word < best.word)
    )
      best = { word, distance, frequency };
  }
  return best?.word ?? null;
}

/**
 * C16: the terms recall looks up. A Latin word the index does not know is corrected to its nearest known word
 * (or dropped: it would match nothing); CJK runs are searched as substrings and kept as written. Of what is
 * left, the four the index knows least (they tell turns apart best) are kept, in the question's order.
 */
export function recallTerms(question: string, vocabulary: RecallVocabulary): RecallTerms {
  const corrections: { from: string; to: string }[] = [];
  const known: (Candidate & { frequency: number })[] = [];
  const taken = new Set<string>();
  for (const candidate of candidateTerms(question)) {
    let term = candidate.term;
    let frequency = candidate.cjk ? 0 : vocabulary.frequency(term);
    if (!candidate.cjk && frequency <= 0) {
      const corrected = correct(term, vocabulary);
      if (!corrected) continue;
      corrections.push({ from: term, to: corrected });
      term = corrected;
      frequency = vocabulary.frequency(term);
    }
    if (taken.has(term)) continue;
    taken.add(term);
    known.push({ ...candidate, term, frequency });
  }
  // CJK runs have no word count in a word index: they rank as rare as the rarest word (they are specific).
  const chosen = [...known]
    .sort((left, right) => left.frequency - right.frequency || left.position - right.position)
    .slice(0, MAX_RECALL_TERMS)
    .sort((left, right) => left.position - right.position);
  const terms = chosen.map((candidate) => candidate.term);
  return { terms, corrections: corrections.filter((correction) => terms.includes(correction.to)) };
}

/** Inflections a stem drops, longest first; what is left keeps at least `MIN_STEM` characters. */
const SUFFIXES = [
  'ations',
  'ation',
  'ings',
  'ing',
  'edly',
  'ness',
  'ments',
  'ment',
  'ers',
  'ies',
  'ied',
  'ed',
  'er',
  'es',
  'ly',
  's',
  'e',
];
/** Endings a stem takes back: with the word itself, the forms a term is looked up and matched as. */
const ENDINGS = [
  '',
  'e',
  's',
  'es',
  'ed',
  'ing',
  'ings',
  'er',
  'ers',
  'y',
  'ies',
  'ied',
  'ly',
  'ness',
  'ment',
  'ments',
  'ation',
  'ations',
];
/** A word this short is looked up as written: its inflections would be other words. */
export const MIN_STEM = 4;

/** The word without one inflection ("scattering", "scattered" → "scatter", "colours" → "colour"). */
export function recallStem(term: string): string {
  if (!LATIN_WORD.test(term)) return term;
  for (const suffix of SUFFIXES)
    if (term.endsWith(suffix) && term.length - suffix.length >= MIN_STEM) return term.slice(0, -suffix.length);
  return term;
}

/**
 * The forms a term is looked up and matched as, sorted: its stem with each common ending ("scatter", "scattered",
 * "scattering", "scatters"…) and the word itself. The index asks FTS5 for them as exact words joined by OR (it
 * streams them and stops at a limit, where a prefix query would gather every posting of every word it begins), so
 * the index keeps its unicode61 words and find stays an exact-phrase search. CJK terms and short words are their
 * own only form.
 */
export function recallForms(term: string): string[] {
  const stem = recallStem(term);
  if (!LATIN_WORD.test(term) || stem.length < MIN_STEM) return [term];
  return [...new Set([term, ...ENDINGS.map((ending) => `${stem}${ending}`)])].sort();
}

const CJK_TERM = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;

/** Which of `terms` occur in `text`: Latin terms as a word in any of their forms (any case), CJK terms as substrings. */
export function matchedTerms(text: string, terms: readonly string[]): string[] {
  const folded = text.normalize('NFKC').toLowerCase();
  let words: Set<string> | null = null;
  return terms.filter((term) => {
    if (CJK_TERM.test(term)) return folded.includes(term);
    words ??= new Set(folded.match(TOKEN) ?? []);
    return recallForms(term).some((form) => words!.has(form));
  });
}
