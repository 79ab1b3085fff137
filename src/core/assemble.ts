import type { CanvasNode } from '../../protocol/canvas-document.ts';
import type { RequestMessage, RequestPart } from '../../protocol/dispatch-request.ts';
import { STALE_MARK, type CompiledSource, type ContextLayer, type PartKind } from './compiled-context.ts';
import type { Graph } from './graph.ts';
import { sha256Hex } from './hashing.ts';
import { digestOf, materialImage, nodeText, type TextKey } from './node-text.ts';
import type { Partition } from './partition.ts';
import { referenceText } from './reference-block.ts';

export interface AssembleOptions {
  stale: ReadonlySet<string>;
  /** Fingerprint mode: the target's own question and attachments are blanked. */
  blankOwn: boolean;
  /** Also return a digest per content part (for fingerprints and upstream parts). */
  digests: boolean;
  /** Reference block texts by `id|depth`, valid for one graph and one stale set. */
  referenceMemo?: Map<string, { text: string; digest: string }>;
}

export interface Assembled {
  messages: RequestMessage[];
  sources: CompiledSource[];
  /** Parallel to messages and their content when `digests` was asked for. */
  digests: string[][];
  attachments: string[];
}

/** Lays the partition out as messages in C5 order, honouring exclusions and de-duplicating images. */
export function assemble(graph: Graph, partition: Partition, options: AssembleOptions): Assembled {
  const target = partition.target;
  const excluded = new Set(target.excludedParts);
  const seenAttachments = new Set<string>();
  const out: Assembled = { messages: [], sources: [], digests: [], attachments: [] };
  const isExcluded = (node: CanvasNode, part: PartKind) => excluded.has(node.id) || excluded.has(`${node.id}:${part}`);

  /** One message from one node: parts in order, empty messages dropped. */
  const emit = (
    node: CanvasNode,
    layer: ContextLayer,
    role: RequestMessage['role'],
    part: PartKind,
    pieces: { partId: string; content: RequestPart; digest: () => string }[],
  ) => {
    if (pieces.length === 0) return;
    out.messages.push({ role, content: pieces.map((piece) => piece.content) });
    out.sources.push({ nodeId: node.id, layer, part, partId: `${node.id}:${part}`, contentPartIds: pieces.map((piece) => piece.partId) });
    if (options.digests) out.digests.push(pieces.map((piece) => piece.digest()));
  };
  const textPiece = (node: CanvasNode, part: PartKind, key: TextKey) => {
    const text = nodeText(node, key) ?? '';
    return { partId: `${node.id}:${part}`, content: { type: 'text' as const, text }, digest: () => digestOf(node, key) };
  };
  const imagePieces = (hashes: readonly string[]) => {
    const pieces = [];
    for (const hash of hashes) {
      const partId = `attachment:${hash}`;
      if (seenAttachments.has(hash) || excluded.has(partId)) continue;
      seenAttachments.add(hash);
      out.attachments.push(hash);
      const mediaType = graph.attachments.get(hash)?.mediaType ?? 'application/octet-stream';
      pieces.push({ partId, content: { type: 'image' as const, hash, mediaType }, digest: () => `image:${hash}:${mediaType}` });
    }
    return pieces;
  };
  const attachmentsOf = (node: CanvasNode): readonly string[] => (node.kind === 'question' ? node.attachments : []);

  for (const node of partition.materials) {
    if (isExcluded(node, 'material')) continue;
    const image = materialImage(node);
    emit(node, 'materials', 'user', 'material', [textPiece(node, 'material', 'material'), ...imagePieces(image ? [image] : [])]);
  }

  for (const { node, depth } of partition.references) {
    if (isExcluded(node, 'reference')) continue;
    const key = `${node.id}|${depth}`;
    let block = options.referenceMemo?.get(key);
    if (!block) {
      block = { text: referenceText(graph, node, depth, options.stale), digest: '' };
      options.referenceMemo?.set(key, block);
    }
    const memo = block;
    const digest = () => memo.digest || (memo.digest = sha256Hex(memo.text));
    emit(node, 'references', 'user', 'reference', [
      { partId: `${node.id}:reference`, content: { type: 'text', text: memo.text }, digest },
    ]);
  }

  for (const node of partition.chain) {
    if (node.kind === 'note') {
      if (!isExcluded(node, 'note')) emit(node, 'chain', 'user', 'note', [textPiece(node, 'note', 'note')]);
      continue;
    }
    if (!isExcluded(node, 'question')) {
      emit(node, 'chain', 'user', 'question', [textPiece(node, 'question', 'question'), ...imagePieces(attachmentsOf(node))]);
    }
    const answerPieces = [];
    const answer = nodeText(node, 'answer');
    if (answer !== null && !isExcluded(node, 'answer')) {
      if (options.stale.has(node.id)) {
        const text = `${STALE_MARK}\n${answer}`;
        answerPieces.push({ partId: `${node.id}:answer`, content: { type: 'text' as const, text }, digest: () => sha256Hex(text) });
      } else {
        answerPieces.push(textPiece(node, 'answer', 'answer'));
      }
    }
    if (nodeText(node, 'execution') !== null && !isExcluded(node, 'execution')) {
      answerPieces.push(textPiece(node, 'execution', 'execution'));
    }
    emit(node, 'chain', 'assistant', 'answer', answerPieces);
  }

  // The question last; in fingerprint mode the node's own content is blanked.
  if (options.blankOwn) {
    emit(target, 'question', 'user', 'question', [
      { partId: `${target.id}:question`, content: { type: 'text', text: '' }, digest: () => EMPTY_DIGEST },
    ]);
  } else {
    emit(target, 'question', 'user', 'question', [textPiece(target, 'question', 'question'), ...imagePieces(attachmentsOf(target))]);
  }
  return out;
}

const EMPTY_DIGEST = sha256Hex('');
