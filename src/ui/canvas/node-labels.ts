import type { CanvasNode } from '../../../protocol/index.ts';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../../protocol/index.ts';
import { renderMentions } from '../../core/index.ts';

/** A short human title for any node (cycle messages, preview sources, search). */
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
        return node.question;
    }
  })();
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? line.slice(0, 57) + '…' : line || `Untitled ${node.kind}`;
}

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

export function formatTime(at: number): string {
  return new Date(at).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
