import { describe, expect, it } from 'vitest';
import { columnWindow } from './set-column-window.ts';

const STRIDE = 330;

describe('columnWindow', () => {
  it('renders the columns in view and one on each side, not all 32', () => {
    // A 990px viewport holds three 330px columns; scrolled to the 10th.
    expect(columnWindow(9 * 330, 990, 32, 9, STRIDE)).toEqual({ from: 8, to: 13 });
    expect(columnWindow(0, 990, 32, 0, STRIDE)).toEqual({ from: 0, to: 4 });
  });

  it('keeps the focused column rendered when it is out of view, so the arrows reach it', () => {
    const window = columnWindow(0, 990, 32, 20, STRIDE);
    expect(window.from).toBe(0);
    expect(window.to).toBeGreaterThan(20);
  });

  it('stays inside the set', () => {
    expect(columnWindow(31 * 330, 990, 32, 31, STRIDE)).toEqual({ from: 30, to: 32 });
    expect(columnWindow(0, 990, 2, 0, STRIDE)).toEqual({ from: 0, to: 2 });
    expect(columnWindow(0, 990, 0, 0, STRIDE)).toEqual({ from: 0, to: 0 });
  });
});
