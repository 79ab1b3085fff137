import type { CanvasNode } from '../../protocol/index.ts';
import { renderMentions } from './mention-text.ts';
import { attachmentPlainText } from './mirror/attachment-parts.ts';

/**
 * A short human title for any node (cycle messages, preview sources, search, mentions). In the core because a
 * mention token carries it: `update-mention` writes the mentioned node's title of now into the token.
 */
export function nodeTitle(node: CanvasNode | undefined): string {
  if (!node) return 'a deleted node';
  const text = (() => {
    switch (node.kind) {
      case 'question':
        return renderMentions(node.question);
      case 'note':
        return node.text;
      case 'material':
        return node.title || node.text;
      case 'frame':
        return node.label;
      case 'mirror':
        // A recorded prompt's `<file name=…>` markup is no title: its attachments read as their names.
        return attachmentPlainText(node.question);
    }
  })();
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? line.slice(0, 57) + '…' : line || `Untitled ${node.kind}`;
}
