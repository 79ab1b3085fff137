import type { EvidenceCode } from './find-evidence.ts';

/**
 * Why the constitution refused a candidate fact. Stable: the activity list, events and tests name them.
 * - `empty-fact` / `not-one-line`: the fact has no text, or more than one line.
 * - `credential`: the fact or its span looks like a key, token, password, card number or private key.
 * - `span-too-short` / `span-not-found` / `no-own-words`: its evidence is not a span of the person's own words
 *   (`no-own-words`: the span is only in the answer, a recall block, a mirrored turn, a material or `[Memory]`).
 * - `identity-not-stated`: an identity fact the person did not state in the first person.
 * - `not-durable`: the person's words are a request to the model ("I want a regex…", "I'd like you to…"), a
 *   reaction to this conversation ("I hate this error message") or a state of the moment ("I'm in a hurry",
 *   "I am tired"): nothing lasting about them.
 * - `refused-by-person`: it matches a line the person deleted or undid, or a topic they refused.
 * - `unknown-update-target`: it claims to update a line that is not a current line of its document.
 * - `duplicate`: a current line already says it (normalised text).
 * - `visit-limit`: three facts were already added on this canvas this visit.
 */
export type AdmissionCode =
  | 'empty-fact'
  | 'not-one-line'
  | 'credential'
  | EvidenceCode
  | 'identity-not-stated'
  | 'not-durable'
  | 'refused-by-person'
  | 'unknown-update-target'
  | 'duplicate'
  | 'visit-limit';

/**
 * Why a merge's operations were refused (the fact is then appended as its own line instead).
 * - `malformed`: the model's output is not an operation list.
 * - `unknown-line`: an operation names a line that is not a current line of the document (or names one twice).
 * - `drops-lines`: the operations remove more lines than they write.
 * - `credential`: a line they would write looks like a secret.
 * - `refused-by-person`: a line they would write matches a refusal.
 * - `fact-missing`: they write lines but none says the admitted fact.
 * - `mixed-no-op`: `no-op` together with other operations.
 * - `not-one-line`: a line they would write holds a line break.
 * - `duplicate-line`: two lines they write say the same thing, or one repeats a line that stays.
 * - `unrelated-add`: an `add` writes a line that is not the fact (only the fact may be added).
 * - `new-words`: a rewritten line holds a content word that is neither in the lines it replaces nor in the fact.
 * - `visit-limit`: they write more lines than the visit may still add (every written line counts).
 */
export type MergeFallbackCode =
  | 'malformed'
  | 'unknown-line'
  | 'drops-lines'
  | 'credential'
  | 'refused-by-person'
  | 'fact-missing'
  | 'mixed-no-op'
  | 'not-one-line'
  | 'duplicate-line'
  | 'unrelated-add'
  | 'new-words'
  | 'visit-limit';

/** Each admission code as words for people (the activity list, the journal); the code stays for tooltips. */
const ADMISSION_WORDS: Record<AdmissionCode, string> = {
  'empty-fact': 'the fact had no words',
  'not-one-line': 'the fact ran over more than one line',
  credential: 'it looked like a key, a password or another secret',
  'span-too-short': 'the words of yours it rests on are too few to show you said it',
  'span-not-found': 'the words it rests on are not in your question or your notes',
  'no-own-words': 'it rests on words that are not yours (an answer, a recall block, a material)',
  'identity-not-stated': 'you did not say it about yourself',
  'not-durable': 'it was a request or a passing state, nothing lasting about you',
  'refused-by-person': 'you deleted, undid or rejected it before',
  'unknown-update-target': 'it would update a line that is no longer there',
  duplicate: 'a line already says it',
  'visit-limit': 'three facts were already added on this canvas this visit',
};

/** Each merge fallback code as words: why the model's merge was not used and the fact kept as its own line. */
const MERGE_FALLBACK_WORDS: Record<MergeFallbackCode, string> = {
  malformed: 'the model’s answer was not a list of changes',
  'unknown-line': 'the model named a line that is not there',
  'drops-lines': 'the model would remove more lines than it writes',
  credential: 'a line it would write looks like a secret',
  'refused-by-person': 'a line it would write is one you refused',
  'fact-missing': 'none of the lines it would write says the fact',
  'mixed-no-op': 'the model both kept the lines as they were and changed them',
  'not-one-line': 'a line it would write runs over more than one line',
  'duplicate-line': 'two lines it would write say the same thing',
  'unrelated-add': 'it would add a line that is not the fact',
  'new-words': 'a reworded line holds words from neither the old lines nor the fact',
  'visit-limit': 'it would write more lines than this visit may still add',
};

/** Why a candidate fact was refused, in words; an unknown code (a newer server) reads as itself, never as blank. */
export function admissionWords(code: string): string {
  return ADMISSION_WORDS[code as AdmissionCode] ?? code;
}

/** Why a merge was refused, in words; an unknown code reads as itself. */
export function mergeFallbackWords(code: string): string {
  return MERGE_FALLBACK_WORDS[code as MergeFallbackCode] ?? code;
}
