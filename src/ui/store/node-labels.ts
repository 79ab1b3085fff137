import type { CanvasNode } from '../../../protocol/index.ts';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../../protocol/index.ts';

/** A short human title for any node; the core's, since a mention token carries it. */
export { nodeTitle } from '../../core/index.ts';

/** Everything searchable on a node, lower-cased. */
export function nodeSearchText(node: CanvasNode): string {
  switch (node.kind) {
    case 'question': {
      const current = node.versions.find((version) => version.id === node.currentVersionId);
      return `${node.question}\n${current?.text ?? ''}`.toLowerCase();
    }
    case 'note':
      return node.text.toLowerCase();
    case 'material':
      return `${node.title}\n${node.text}`.toLowerCase();
    case 'frame':
      return node.label.toLowerCase();
    case 'mirror':
      return `${node.question}\n${node.answer}`.toLowerCase();
  }
}

export function isReceiptModel(model: string): boolean {
  return model === OFFLINE_RECEIPT_MODEL_ID;
}

export function shortModel(model: string): string {
  if (isReceiptModel(model)) return 'offline receipt';
  const slash = model.indexOf('/');
  return slash >= 0 ? model.slice(slash + 1) : model;
}
