import { describe, expect, it } from 'vitest';
import { attachmentParts, attachmentPlainText, clipParts } from './attachment-parts.ts';

// Verbatim from the recorded fixture sessions (tests/fixtures/real-sessions/{pi,codex}/image), parts joined by lines.
const PI_PROMPT =
  '<file name="/tmp/realsessions/out/pi/image/repo/assets/pixel.png"></file>\nWhat colour is this image? Also open assets/pixel.png yourself to double-check. [image]';
const CODEX_PROMPT = '<image name=[Image #1] path="assets/pixel.png">\n</image>\nWhat colour is this image?';

describe('attachmentParts: what the CLIs attach reads as chips, never as markup', () => {
  it("reads Pi's <file name=…></file> as a file chip named by its base name", () => {
    const parts = attachmentParts(PI_PROMPT);
    expect(parts[0]).toEqual({
      kind: 'attachment',
      type: 'file',
      label: 'pixel.png',
      detail: '/tmp/realsessions/out/pi/image/repo/assets/pixel.png',
    });
    expect(parts.slice(1)).toEqual([
      {
        kind: 'text',
        text: '\nWhat colour is this image? Also open assets/pixel.png yourself to double-check. [image]',
      },
    ]);
  });

  it("drops a file's inlined content with its tags", () => {
    const parts = attachmentParts('See <file name="notes.md">line one\nline two</file> and tell me.');
    expect(parts).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'attachment', type: 'file', label: 'notes.md', detail: 'notes.md' },
      { kind: 'text', text: ' and tell me.' },
    ]);
  });

  it("reads Codex's <image name=[Image #1] path=…> and its stray </image> as one image chip", () => {
    const parts = attachmentParts(CODEX_PROMPT);
    expect(parts.filter((part) => part.kind === 'attachment')).toEqual([
      { kind: 'attachment', type: 'image', label: 'pixel.png', detail: 'Image #1 · assets/pixel.png' },
    ]);
    expect(attachmentPlainText(CODEX_PROMPT)).toBe('pixel.png What colour is this image?');
  });

  it("reads Claude Code's bare [Image #1] and [Pasted text #2 +20 lines] markers as chips", () => {
    expect(attachmentParts('[Image #1] Is this blue? [Pasted text #2 +20 lines]')).toEqual([
      { kind: 'attachment', type: 'image', label: 'Image #1', detail: 'Image #1' },
      { kind: 'text', text: ' Is this blue? ' },
      { kind: 'attachment', type: 'paste', label: 'Pasted text #2 +20 lines', detail: 'Pasted text #2 +20 lines' },
    ]);
  });

  it('leaves text with no attachment as it is, angle brackets and all', () => {
    expect(attachmentParts('Is a < b? Use <div> here.')).toEqual([{ kind: 'text', text: 'Is a < b? Use <div> here.' }]);
    expect(attachmentParts('')).toEqual([]);
  });

  it('clips the text around chips, folding whitespace, and marks the cut', () => {
    const clipped = clipParts(attachmentParts(PI_PROMPT), 30);
    expect(clipped[0]).toMatchObject({ kind: 'attachment', label: 'pixel.png' });
    expect(clipped[1]).toEqual({ kind: 'text', text: ' What colour is…' });
    expect(clipParts(attachmentParts('  short  text '), 100)).toEqual([{ kind: 'text', text: 'short text' }]);
  });
});
