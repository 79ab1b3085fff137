import { describe, expect, it } from 'vitest';
import type { CanvasDocument } from '../../../protocol/canvas-document.ts';
import { sampleCanvas } from '../../../tests/support/sample-canvas.ts';
import { checkCanvasLater } from './check-canvas-later.ts';

describe('checkCanvasLater (the schema check of a canvas painted before it was checked)', () => {
  const many = (): CanvasDocument => {
    const document = sampleCanvas('later');
    const [note] = document.nodes;
    document.nodes = Array.from({ length: 1000 }, (_, index) => ({ ...note!, id: `note-${index}` }));
    return document;
  };

  it('reads every record, giving the page a turn between slices', async () => {
    let pauses = 0;
    await checkCanvasLater(many(), async () => void (pauses += 1));
    expect(pauses).toBeGreaterThanOrEqual(3);
  });

  it('refuses with bad-response naming the first damaged record', async () => {
    const document = many();
    (document.nodes[700] as unknown as Record<string, unknown>).position = 'here';
    await expect(checkCanvasLater(document, async () => undefined)).rejects.toMatchObject({
      code: 'bad-response',
      message: expect.stringContaining('nodes.700.position') as unknown,
    });
  });
});
