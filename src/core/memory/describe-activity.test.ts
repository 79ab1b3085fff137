import { describe, expect, it } from 'vitest';
import { activityTone, describeActivity } from './describe-activity.ts';
import { admissionWords, mergeFallbackWords, type AdmissionCode, type MergeFallbackCode } from './verdict-codes.ts';

const ADMISSION: AdmissionCode[] = [
  'empty-fact',
  'not-one-line',
  'credential',
  'span-too-short',
  'span-not-found',
  'no-own-words',
  'identity-not-stated',
  'not-durable',
  'refused-by-person',
  'unknown-update-target',
  'duplicate',
  'visit-limit',
];
const MERGE: MergeFallbackCode[] = [
  'malformed',
  'unknown-line',
  'drops-lines',
  'credential',
  'refused-by-person',
  'fact-missing',
  'mixed-no-op',
  'not-one-line',
  'duplicate-line',
  'unrelated-add',
  'new-words',
  'visit-limit',
];
// A code as a person would see it in text: a hyphenated lowercase word.
const CODE = /\b[a-z]+-[a-z]+(-[a-z]+)*\b/;

describe('memory activity in words', () => {
  it('says every refusal and merge fallback as words, never as its code', () => {
    for (const code of ADMISSION) {
      const sentence = describeActivity({ kind: 'refused', reason: code });
      expect(sentence).toContain(admissionWords(code));
      expect(sentence).not.toMatch(CODE);
    }
    for (const code of MERGE) {
      const sentence = describeActivity({ kind: 'admitted', reason: code });
      expect(sentence).toContain(mergeFallbackWords(code));
      expect(sentence).not.toMatch(CODE);
    }
    expect(describeActivity({ kind: 'refused', reason: 'refused-by-person' })).toBe(
      'Refused: you deleted, undid or rejected it before.',
    );
  });

  it('says the other decisions as sentences too', () => {
    const kinds = [
      { kind: 'judge-failed', reason: 'merge-no-answer' },
      { kind: 'judge-failed', reason: 'no-answer' },
      { kind: 'undone', reason: null },
      { kind: 'proposed', reason: null },
      { kind: 'proposed', reason: 'already-pending' },
      { kind: 'admitted', reason: 'project-dossier' },
      { kind: 'admitted', reason: 'no-op' },
      { kind: 'admitted', reason: null },
    ] as const;
    for (const entry of kinds) expect(describeActivity(entry)).toMatch(/^[A-Z][^]*\.$/);
    for (const entry of kinds) expect(describeActivity(entry)).not.toMatch(CODE);
  });

  it('marks a duplicate as quiet, not as a refusal', () => {
    expect(activityTone({ kind: 'refused', reason: 'duplicate' })).toBe('quiet');
    expect(activityTone({ kind: 'refused', reason: 'not-durable' })).toBe('refused');
    expect(activityTone({ kind: 'judge-failed', reason: 'no-answer' })).toBe('failed');
    expect(activityTone({ kind: 'admitted', reason: null })).toBe('kept');
    expect(activityTone({ kind: 'proposed', reason: 'already-pending' })).toBe('quiet');
  });

  it('reads a code it does not know as itself rather than as nothing', () => {
    expect(admissionWords('some-new-code')).toBe('some-new-code');
  });
});
