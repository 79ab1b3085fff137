import { describe, expect, it } from 'vitest';
import { placeBeside } from './place-beside.ts';

describe('placeBeside', () => {
  const anchor = { x: 100, y: 200, width: 300, height: 150 };

  it('puts the new card to the right of the selected node, level with it', () => {
    expect(placeBeside(anchor, [anchor])).toEqual({ x: 460, y: 200 });
  });

  it('steps down that column past cards already there, never on top of one', () => {
    const taken = { x: 460, y: 200, width: 300, height: 150 };
    const spot = placeBeside(anchor, [anchor, taken]);
    expect(spot.x).toBe(460);
    expect(spot.y).toBeGreaterThanOrEqual(taken.y + taken.height);
  });
});
