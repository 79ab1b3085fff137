import { describe, expect, it } from 'vitest';
import type { SetAnswer, Version } from '../../protocol/index.ts';
import { setAnswers } from './set-answers.ts';

const CONTEXT = 'c'.repeat(64);
let counter = 0;
function version(setAnswer?: Omit<SetAnswer, 'temperature' | 'contextHash'>): Version {
  counter += 1;
  return {
    id: `v${counter}`,
    text: `answer ${counter}`,
    question: 'q',
    model: setAnswer?.model ?? 'solo/model',
    createdAt: counter,
    requestHash: 'a'.repeat(64),
    upstreamFingerprint: 'b'.repeat(64),
    upstream: { base: null, parts: [], removed: [] },
    origin: 'generated',
    status: 'complete',
    branchOf: null,
    ...(setAnswer ? { setAnswer: { ...setAnswer, temperature: 0, contextHash: CONTEXT } } : {}),
  };
}

describe('setAnswers (issue 31)', () => {
  it('opens on the latest set, in the set’s model order then by sample, whatever order the answers finished in', () => {
    const older = version({ setId: 'old', model: 'x/one', sample: 1 });
    const versions = [
      older,
      version(),
      version({ setId: 'new', model: 'x/two', sample: 2 }),
      version({ setId: 'new', model: 'x/one', sample: 1 }),
      version({ setId: 'new', model: 'x/two', sample: 1 }),
      version({ setId: 'new', model: 'x/one', sample: 2 }),
    ];
    const node = {
      versions,
      currentVersionId: versions[1]!.id,
      modelSet: { models: ['x/one', 'x/two'], samples: 2, temperature: 0 },
    };
    const opened = setAnswers(node)!;
    expect(opened.setId).toBe('new');
    expect(opened.contextHash).toBe(CONTEXT);
    expect(opened.answers.map((each) => [each.setAnswer!.model, each.setAnswer!.sample])).toEqual([
      ['x/one', 1],
      ['x/one', 2],
      ['x/two', 1],
      ['x/two', 2],
    ]);
    // The selected version's own set wins over the latest.
    expect(setAnswers({ ...node, currentVersionId: older.id })!.answers).toEqual([older]);
  });

  it('is null for a node never asked of a set', () => {
    expect(setAnswers({ versions: [version()], currentVersionId: null })).toBeNull();
  });
});
