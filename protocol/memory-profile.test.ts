import { describe, expect, it } from 'vitest';
import {
  MEMORY_PROFILE_FORMAT,
  MEMORY_PROFILE_VERSION,
  MergeOperationsSchema,
  MemoryEventOpSchema,
  readMemoryProfile,
} from './memory-profile.ts';

const line = {
  id: 'line-1',
  text: 'Prefers tabs over spaces',
  evidence: 'stated',
  span: 'I prefer tabs over spaces',
  origin: { canvasId: 'canvas-1', nodeId: 'node-1', versionId: 'version-1', commitHash: 'a'.repeat(64), at: 1 },
  createdAt: 2,
  supersedes: [],
  ended: null,
};
const profile = {
  format: MEMORY_PROFILE_FORMAT,
  version: MEMORY_PROFILE_VERSION,
  documents: { preferences: [line], identity: [] },
  refusals: [{ id: 'refusal-1', kind: 'deleted-line', text: 'Writes Go', lineId: 'line-0', at: 3 }],
};

describe('memory profile file (version 1)', () => {
  it('reads a valid profile', () => {
    expect(readMemoryProfile(profile)).toEqual({ ok: true, profile });
  });

  it('refuses foreign, newer and damaged files with a code, never throwing', () => {
    expect(readMemoryProfile({ format: 'weft.canvas' })).toMatchObject({ ok: false, code: 'not-a-profile' });
    expect(readMemoryProfile(null)).toMatchObject({ ok: false, code: 'not-a-profile' });
    expect(readMemoryProfile({ ...profile, version: 2 })).toMatchObject({ ok: false, code: 'newer-version' });
    const twoLines = { ...profile, documents: { preferences: [{ ...line, text: 'a\nb' }], identity: [] } };
    expect(readMemoryProfile(twoLines)).toMatchObject({ ok: false, code: 'corrupt' });
    const badEvidence = { ...profile, documents: { preferences: [{ ...line, evidence: 'guessed' }], identity: [] } };
    const result = readMemoryProfile(badEvidence);
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.message).toContain('documents.preferences.0.evidence');
  });
});

describe('merge operations', () => {
  it('accepts add, replace and no-op, and nothing else', () => {
    expect(
      MergeOperationsSchema.safeParse({
        operations: [{ op: 'add', text: 'x' }, { op: 'replace', lineIds: ['line-1'], text: 'y' }, { op: 'no-op' }],
      }).success,
    ).toBe(true);
    expect(MergeOperationsSchema.safeParse({ operations: [{ op: 'rewrite', document: 'all of it' }] }).success).toBe(
      false,
    );
    expect(MergeOperationsSchema.safeParse({ operations: [{ op: 'replace', lineIds: [], text: 'y' }] }).success).toBe(
      false,
    );
    expect(MergeOperationsSchema.safeParse({ operations: [] }).success).toBe(false);
  });

  it('names the memory event ops', () => {
    expect(MemoryEventOpSchema.options).toEqual([
      'memory-judged',
      'memory-written',
      'memory-undone',
      'memory-refused-by-person',
      'memory-refusal-lifted',
      'memory-edited',
      'memory-switched',
      'memory-imported',
      'memory-proposed',
      'memory-accepted',
      'memory-rejected',
      'memory-exchange-unrecorded',
      'memory-put-aside',
      'memory-restored',
    ]);
  });
});
