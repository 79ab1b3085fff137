import { describe, expect, it } from 'vitest';
import { progressWords } from './progress-words.ts';

const label = (id: string) => ({ 'local/beta': 'Beta' })[id] ?? id;

describe('the progress chip’s words say what runs', () => {
  it('a Replay counts its steps', () => {
    const words = progressWords(
      { job: { kind: 'replay' }, total: 5, done: 1, currentNodeId: 'n', running: true },
      label,
    );
    expect(words).toBe('Replaying 2/5');
  });

  it('a set ask names how many models it asks, not a Replay', () => {
    const words = progressWords(
      { job: { kind: 'set', models: 3 }, total: 6, done: 0, currentNodeId: 'n', running: true },
      label,
    );
    expect(words).toBe('Asking 3 models…');
  });

  it('a re-run names its model by its label, with its step', () => {
    const progress = {
      job: { kind: 'rerun', model: 'local/beta' },
      total: 4,
      done: 4,
      currentNodeId: null,
      running: true,
    } as const;
    expect(progressWords(progress, label)).toBe('Re-running under Beta 4/4…');
    expect(progressWords({ ...progress, job: { kind: 'rerun', model: 'x/unknown' } }, label)).toBe(
      'Re-running under x/unknown 4/4…',
    );
  });
});
