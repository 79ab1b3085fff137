import { describe, expect, it } from 'vitest';
import { recallSourceLine } from './RecallSection.tsx';

// Issue 30: a recalled turn's source line names its session as a person reads it, never with the CLI's markup.
describe('the recall source line', () => {
  it('reads an attachment in a session title as its name, not its markup', () => {
    const line = recallSourceLine({
      kind: 'turn',
      runner: 'pi',
      sessionTitle: '<file name="/tmp/repo/assets/pixel.png"></file>\nWhat colour is this image?',
      turn: 2,
      at: Date.UTC(2026, 0, 5, 12),
      topic: null,
      knownAs: 'observed',
    });
    expect(line).not.toMatch(/<\/?(file|image)\b/);
    expect(line).toContain('“pixel.png What colour is this image?”');
    expect(line).toContain('turn 2');
  });
});
