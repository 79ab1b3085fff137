import type { ShownMention, ShownQuestion } from './shown-mentions.ts';

/**
 * C31: a mention keeps the title it was written with, which is what the request carries. When the mentioned node
 * was renamed since, this says so under the field and offers the one-click update (core's `update-mention`),
 * so the question changes, and goes stale, only when the person chooses.
 */
export function RenamedMentions({
  shown,
  onUpdate,
}: {
  shown: ShownQuestion;
  onUpdate: (mentionedId: string) => void;
}) {
  // One line per renamed node, however often the question mentions it.
  const renamed = new Map<string, ShownMention>();
  for (const mention of shown.mentions) if (mention.renamedTo !== null) renamed.set(mention.nodeId, mention);
  if (renamed.size === 0) return null;
  return (
    <span className="mention-renames">
      {[...renamed.values()].map((mention) => {
        const written = shown.text.slice(mention.start, mention.end);
        return (
          <button
            key={mention.nodeId}
            type="button"
            className="mention-rename"
            data-testid="mention-update"
            data-node-id={mention.nodeId}
            title={`renamed to ${mention.renamedTo} — update`}
            onClick={() => onUpdate(mention.nodeId)}
          >
            {written} was renamed to “{mention.renamedTo}” — update mention
          </button>
        );
      })}
    </span>
  );
}
