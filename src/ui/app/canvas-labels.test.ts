import { describe, expect, it } from 'vitest';
import { canvasLabels } from './canvas-labels.ts';

const day = (at: number) => `day${Math.floor(at / 1000)}`;
const time = (at: number) => `t${at % 1000}`;

describe('canvasLabels', () => {
  it('leaves a unique name alone and tells same-named canvases apart by folder and day', () => {
    const labels = canvasLabels(
      [
        { id: 'a', name: 'Study', updatedAt: 1000, nodeCount: 1, workingDirectory: '/home/ana/loom' },
        { id: 'b', name: 'Study', updatedAt: 2000, nodeCount: 1, workingDirectory: '/home/ana/weft/' },
        { id: 'c', name: 'Other', updatedAt: 2000, nodeCount: 1, workingDirectory: null },
      ],
      day,
      time,
    );
    expect(labels.get('a')).toBe('Study — loom · day1');
    expect(labels.get('b')).toBe('Study — weft · day2');
    expect(labels.get('c')).toBe('Other');
  });

  it('adds the time when the folder and the day are the same', () => {
    const labels = canvasLabels(
      [
        { id: 'a', name: 'Study', updatedAt: 1001, nodeCount: 1 },
        { id: 'b', name: 'Study', updatedAt: 1002, nodeCount: 1 },
      ],
      day,
      time,
    );
    expect(labels.get('a')).toBe('Study — day1 t1');
    expect(labels.get('b')).toBe('Study — day1 t2');
  });
});
