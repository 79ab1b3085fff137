import { CARD_CANDIDATE, credentialPatterns, luhnValid } from '../memory/credential-patterns.ts';

/** A secret's name followed by its value ("password hunter2", "api key is sk-…"): the value is what goes. */
const NAMED_VALUE =
  /\b(password|passwd|passphrase|passcode|api[ _-]?key|access[ _-]?token|auth[ _-]?token|bearer token|secret[ _-]?key)(s?\s*(?:is|=|:)?\s*)(["'`]?)([^\s"'`]{4,})/gi;
/** Weaker names count only with an explicit `:` or `=` ("token: abc…", not "a token budget"). */
const ASSIGNED_VALUE = /\b(pwd|secret|pin|token)(\s*[:=]\s*)(["'`]?)([^\s"'`]+)/gi;

/** The constitution's patterns (but the bare-name one, handled above), global, compiled once. */
const GLOBAL_PATTERNS = credentialPatterns()
  .filter(({ kind }) => kind !== 'password')
  .map(({ kind, pattern }) => ({
    kind,
    pattern: new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
  }));
const CARD_NUMBERS = new RegExp(CARD_CANDIDATE.source, 'g');
const PRIVATE_KEY_BODY = /\[redacted private-key\][\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|$)/g;

/**
 * C16: every credential-like string in `text` replaced by `[redacted <kind>]` before an excerpt enters the recall
 * block, with the memory constitution's patterns (a false positive costs a word; a false negative leaks a key).
 */
export function redactCredentials(text: string): { text: string; redactions: number } {
  let redactions = 0;
  const value = (_match: string, name: string, gap: string, quote: string) => {
    redactions += 1;
    return `${name}${gap}${quote}[redacted password]`;
  };
  let result = text.replace(NAMED_VALUE, value).replace(ASSIGNED_VALUE, value);
  for (const { kind, pattern } of GLOBAL_PATTERNS) {
    result = result.replace(pattern, (match) => {
      if (match.startsWith('[redacted')) return match;
      redactions += 1;
      return `[redacted ${kind}]`;
    });
  }
  // A private key block: its body goes too, up to its END line (or the end of the text).
  result = result.replace(PRIVATE_KEY_BODY, () => '[redacted private-key]');
  result = result.replace(CARD_NUMBERS, (match) => {
    const digits = match.replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) return match;
    redactions += 1;
    return '[redacted card-number]';
  });
  return { text: result, redactions };
}
