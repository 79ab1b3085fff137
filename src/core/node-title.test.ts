import { describe, expect, it } from 'vitest';
import type { CanvasNode } from '../../protocol/index.ts';
import { nodeTitle } from './node-title.ts';

describe('nodeTitle', () => {
  it('names a mirrored turn by its words and its attachments’ names, never the CLI’s markup (issue 30.5)', () => {
    // Only the fields nodeTitle reads: a mirror node's recorded question, as Codex wrote it.
    const mirror = {
      kind: 'mirror',
      question: '<image name=[Image #1] path="assets/pixel.png">\n</image>\nWhat colour is this image?',
    } as CanvasNode;
    expect(nodeTitle(mirror)).toBe('pixel.png What colour is this image?');
  });
});
