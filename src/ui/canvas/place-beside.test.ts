import { describe, expect, it } from 'vitest';
import { ANSWERED_CARD, flowBoxes, placeBeside, selectedAnchor } from './place-beside.ts';

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

describe('a new card beside a question', () => {
  it('is placed where the cards fit once their answers arrive', () => {
    // An unanswered question is drawn short; its answer makes it about ANSWERED_CARD tall.
    const question = { id: 'q', type: 'question', position: { x: 100, y: 200 }, measured: { width: 300, height: 90 } };
    const beside = { id: 'b', type: 'question', position: { x: 460, y: 200 }, measured: { width: 300, height: 90 } };
    const spot = placeBeside(
      selectedAnchor({ selectedNodeIds: ['q'], focusedNodeId: null }, [question, beside])!,
      flowBoxes([question, beside]),
      ANSWERED_CARD,
    );
    // Both answered: the new card starts below the answered height of the card above it.
    expect(spot.x).toBe(460);
    expect(spot.y).toBeGreaterThanOrEqual(beside.position.y + ANSWERED_CARD.height);
  });

  it('takes a note at its drawn size (only questions grow with an answer)', () => {
    const note = { id: 'n', type: 'note', position: { x: 0, y: 0 }, measured: { width: 300, height: 80 } };
    expect(flowBoxes([note])[0]!.height).toBe(80);
    expect(flowBoxes([{ ...note, type: 'question' }])[0]!.height).toBe(ANSWERED_CARD.height);
  });
});
