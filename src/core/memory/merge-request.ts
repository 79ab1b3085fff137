import type { MemoryProfile } from '../../../protocol/index.ts';
import type { AdmittedFact } from './candidate-fact.ts';
import { currentLines } from './profile.ts';

/** What the merge model is asked: its instructions and the fact against the document's current lines. */
export interface MergeRequest {
  kind: 'memory-merge';
  system: string;
  prompt: string;
}

/** At most this many current lines are shown to the merge model (the rest stay as they are). */
export const MAX_MERGE_LINES = 40;

const MERGE_SYSTEM =
  'You maintain a list of facts about a person, one fact per line, each with an id. You never rewrite the list and never answer in prose. You answer with one JSON object {"operations": [...]} whose operations are: {"op":"add","text":"…"} to add a line; {"op":"replace","lineIds":["<id>"],"text":"…"} when the new fact refines or contradicts those lines; {"op":"no-op"} alone when a line already says the fact. Keep the new fact\'s words as given; never drop a line you do not replace.';

/**
 * The merge model's request for an admitted profile fact (C14 item 4), or null when its document has no current
 * line: then there is nothing to merge against and the fact is added without a call.
 */
export function mergeRequest(profile: MemoryProfile, fact: AdmittedFact): MergeRequest | null {
  if (fact.document === null) return null;
  const lines = currentLines(profile, fact.document).slice(0, MAX_MERGE_LINES);
  if (lines.length === 0) return null;
  const listed = lines.map((line) => `${line.id}: ${line.text}`).join('\n');
  return {
    kind: 'memory-merge',
    system: MERGE_SYSTEM,
    prompt: `Task: memory-merge\n\n[Current lines of the ${fact.document} document]\n${listed}\n\n[New fact, in the person's words]\n${fact.text}\n\nAnswer with JSON only, for example {"operations":[{"op":"add","text":${JSON.stringify(fact.text)}}]}`,
  };
}

/**
 * The merge model's text as the raw value `mergeFact` validates: the JSON object in it (code fences and prose
 * around it tolerated), or the text itself when there is none, which `mergeFact` refuses as `malformed`.
 */
export function parseMergeAnswer(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return text;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return text;
  }
}
