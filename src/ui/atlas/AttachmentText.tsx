import { attachmentParts, clipParts } from '../../core/index.ts';

// Words, not pictographs: the bundled fonts have no emoji, and an empty box says nothing.
const KIND = { image: 'Image', file: 'File', paste: 'Pasted' } as const;

/**
 * A recorded prompt or title with what was attached as chips (core's `attachmentParts`), clipped to `length`
 * characters: `<file name="…">`, `<image name=[Image #1]…>` and `[Image #1]` never show as markup.
 */
export function AttachmentText({ text, length }: { text: string; length: number }) {
  const parts = clipParts(attachmentParts(text), length);
  return (
    <>
      {parts.map((part, index) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <span
            key={index}
            className={`attachment-chip ${part.type}`}
            data-testid="attachment-chip"
            data-type={part.type}
            title={part.detail}
          >
            {!part.label.startsWith(KIND[part.type]) && <span className="attachment-kind">{KIND[part.type]}</span>}
            {part.label}
          </span>
        ),
      )}
    </>
  );
}
