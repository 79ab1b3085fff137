/** What kind of secret a text looks like it holds. */
export type CredentialKind =
  'api-key' | 'aws-key' | 'github-token' | 'slack-token' | 'jwt' | 'password' | 'card-number' | 'private-key';

/**
 * A hash's label and what may stand between it and the digest: "hash: ", "SHA-256 ", `Hash": "`. The label is a
 * word of its own, or the camel-case end of one (`requestHash`): "secrethash" or "mykeyhash" label no hash.
 */
const HASH_LABEL =
  String.raw`(?:(?<![A-Za-z])(?:[Hh]ash|HASH|[Ss][Hh][Aa]-?256|[Dd]igest|DIGEST)|(?<=[a-z])(?:Hash|Digest))` +
  String.raw`["'\x60]?[^\S\n]{0,3}[:=]?[^\S\n]{0,3}["'\x60]?`;

/** Patterns for secrets people paste; a false positive costs one fact, a false negative leaks a key. */
const PATTERNS: readonly { kind: CredentialKind; pattern: RegExp }[] = [
  { kind: 'private-key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----/ },
  { kind: 'api-key', pattern: /\bsk-(?:[a-z]+-)?[A-Za-z0-9_-]{16,}/ },
  { kind: 'aws-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { kind: 'slack-token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/ },
  { kind: 'api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  {
    kind: 'password',
    // Any mention of a secret's name, however it is phrased ("I use the password hunter2 for everything"): a
    // false positive costs one fact. A bare "token" is a word too ("a token is a word"), so only `token:` counts.
    pattern:
      /\b(?:password|passwd|passphrase|passcode|pin code|api[ _-]?key|access[ _-]?token|auth[ _-]?token|bearer token|secret[ _-]?key)s?\b|\b(?:pwd|secret|pin|token)\s*[:=]\s*\S+/i,
  },
  // A long run of letters mixed with digits looks like a generated key whatever its prefix — but not a SHA-256
  // hex digest its text labels as a hash ("Request hash: 9f86…", `"blockHash": "…"`): the run must be exactly 64
  // hex digits right after the label. (Case-sensitive, so the label's word boundary holds; the classes take both.)
  {
    kind: 'api-key',
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_-])(?!(?<=${HASH_LABEL})[0-9a-fA-F]{64}(?![A-Za-z0-9_-]))` +
        String.raw`(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{24,}`,
    ),
  },
];

/** The patterns themselves, for code that must find every occurrence (recall redacts them, C16). */
export function credentialPatterns(): readonly { kind: CredentialKind; pattern: RegExp }[] {
  return PATTERNS;
}

/** 13–19 digits, optionally grouped by single spaces or dashes. */
export const CARD_CANDIDATE = /\b\d(?:[ -]?\d){12,18}\b/g;

/** The Luhn checksum every payment card number satisfies. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The first kind of credential `text` seems to hold, or null. */
export function findCredential(text: string): CredentialKind | null {
  for (const { kind, pattern } of PATTERNS) if (pattern.test(text)) return kind;
  for (const match of text.matchAll(CARD_CANDIDATE)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return 'card-number';
  }
  return null;
}
