import { normaliseText } from './normalise-text.ts';

export type FactCategory = 'preference' | 'identity' | 'project';

/**
 * First-person statements of who the person is. "I am asking about Christophe" is not one (a verb in -ing
 * after "I am" describes what they do now), nor "I'm not …" (a denial states nothing to store).
 */
const IDENTITY =
  /(?:^|[^\p{L}'])(?:my name is|my name's|call me|i go by|my pronouns are|i work (?:as|at|for)|i live in|i was born|i am|i'm|im)\s+(?!not\b|\p{L}+ing\b|(?:so|very|really|just|also|still|sure|glad|happy|sorry|trying|going|looking)\b)/u;

const IDENTITY_ALL = new RegExp(IDENTITY.source, 'gu');
const CLAUSE_END = /[,.;:!?]|\s(?:and|but|who|with|because|so|while)\s/u;

/**
 * What the person said they are: the words after each first-person identity phrase, up to the end of its clause
 * ("I am Ana and I work with Christophe" → ["ana"]). Normalised text.
 */
export function identityClauses(text: string): string[] {
  const normal = normaliseText(text);
  const clauses: string[] = [];
  for (const match of normal.matchAll(IDENTITY_ALL)) {
    const rest = normal.slice(match.index + match[0].length);
    const end = rest.search(CLAUSE_END);
    clauses.push((end < 0 ? rest : rest.slice(0, end)).trim());
  }
  return clauses.filter((clause) => clause.length > 0);
}

/** First-person statements of a lasting preference ("I prefer…", "please always…", "my favourite…"). */
const PREFERENCE =
  /(?:^|[^\p{L}'])(?:i (?:really |strongly |usually |generally |always |never )?(?:prefer|like|love|hate|dislike|want|use|avoid|enjoy)|i'd rather|i would rather|my favou?rite|please (?:always|never)|always (?:answer|reply|write|use)|never (?:answer|reply|write|use))\b/u;

/** First-person statements about the person's own work ("I'm building…", "our project uses…"). */
const PROJECT =
  /(?:^|[^\p{L}'])(?:i'm (?:building|writing|working on|developing)|i am (?:building|writing|working on|developing)|our (?:project|app|team|codebase|repo|company) (?:is|uses|runs|has)|my (?:project|app|thesis|startup|codebase|repo) (?:is|uses|runs|has))\b/u;

/** The category a first-person statement in the person's words belongs to, or null when it states none. */
export function firstPersonCategory(text: string): FactCategory | null {
  const normal = normaliseText(text);
  if (PROJECT.test(normal)) return 'project';
  if (PREFERENCE.test(normal)) return 'preference';
  if (IDENTITY.test(normal)) return 'identity';
  return null;
}

/** True when `text` is the person saying who they are in the first person. */
export function statesIdentity(text: string): boolean {
  const normal = normaliseText(text);
  return IDENTITY.test(normal) && !PROJECT.test(normal);
}

/** A request to the model, not a fact about the person: "I want a regex…", "I need an example", "I'd like you to…". */
const REQUEST =
  /(?:^|[^\p{L}'])(?:i (?:really |just )?(?:want|need) (?:a|an|some|you|help|this|that|it|the)|i'd like (?:a|an|some|you|to|the)|i would like (?:a|an|some|you|to|the)|can you|could you|please (?:write|give|show|make|fix|explain))\b/u;

/** A reaction to the conversation itself: "I hate this error message", "I like your answer". */
const REACTION =
  /(?:^|[^\p{L}'])(?:this|that|these|those|your) (?:answers?|replies|reply|responses?|errors?|bugs?|code|messages?|outputs?|explanations?|suggestions?|examples?|results?|conversation|chat|question|solution|approach)\b/u;

/** A state of the moment: "I'm in a hurry", "I am tired", "I'm stuck". */
const STATE_WORDS =
  'in a hurry|in a rush|tired|busy|confused|stuck|lost|frustrated|annoyed|bored|sleepy|exhausted|stressed|late|done|back|here|ready|excited|curious|worried|sick|hungry|upset|angry|sad|nervous|anxious|fed up|overwhelmed|puzzled|impressed|surprised|disappointed|grateful|thankful';
const TRANSIENT = new RegExp(
  `(?:^|[^\\p{L}'])(?:i'm|i am|im) (?:(?:so|very|really|just|a bit|a little|kind of|pretty|quite|getting|feeling) )*(?:${STATE_WORDS})\\b`,
  'u',
);

/**
 * "I am <adjective>" in -ed ("I am annoyed", "I'm Tired") is a mood, except the few -ed words that are lasting
 * facts about a life ("I am married", "I'm based in Leeds").
 */
const LASTING_ED = new Set(
  'married retired based divorced engaged employed unemployed self-employed located named called born qualified trained certified interested widowed'.split(
    ' ',
  ),
);
const AM_ED = /(?:^|[^\p{L}'])(?:i'm|i am|im) ([\p{L}-]+ed)\b/u;

/**
 * Why a first-person sentence is not a lasting fact about the person, or null when it may be one: a request
 * (`request`), a reaction to this conversation (`reaction`) or a state of the moment (`transient`).
 */
export function notDurable(text: string): 'request' | 'reaction' | 'transient' | null {
  const normal = normaliseText(text);
  if (REQUEST.test(normal)) return 'request';
  if (REACTION.test(normal)) return 'reaction';
  if (TRANSIENT.test(normal)) return 'transient';
  const moodWord = AM_ED.exec(normal)?.[1];
  if (moodWord !== undefined && !LASTING_ED.has(moodWord)) return 'transient';
  return null;
}
