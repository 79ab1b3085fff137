import type { CanvasNode } from '../../protocol/canvas-document.ts';
import type { RequestMessage, RequestPart } from '../../protocol/dispatch-request.ts';
import { STALE_MARK, type CompiledSource, type ContextLayer, type PartKind } from './compiled-context.ts';
import type { Graph } from './graph.ts';
import { sha256Hex } from './hashing.ts';
import { digestOf, materialImage, nodeText, type TextKey } from './node-text.ts';
import type { Partition } from './partition.ts';
import { referenceText } from './reference-block.ts';

/**
 * Receives the compiled context one message at a time. Compile builds messages from it;
 * fingerprints only need a digest per content part, so they skip building messages at all.
 * Both read the same walk (`walkContext`), so they cannot disagree about what is in context.
 */
export interface ContextSink {
  /** Whether `text`/`image` need the part's digest (fingerprint mode). */
  readonly wantsDigests: boolean;
  begin(node: CanvasNode, layer: ContextLayer, role: RequestMessage['role'], part: PartKind): void;
  text(partId: string, text: string, digest: string): void;
  image(partId: string, hash: string, mediaType: string): void;
  /** Closes the message; a message with no parts is dropped. */
  end(): void;
}

export interface WalkOptions {
  stale: ReadonlySet<string>;
  /** Fingerprint mode: the target's own question and attachments are blanked. */
  blankOwn: boolean;
  /** Reference block texts by `id|depth`, valid for one graph and one stale set. */
  referenceMemo?: Map<string, { text: string; digest: string }>;
}

const EMPTY_DIGEST = sha256Hex('');

/** Lays the partition out in C5 order, honouring exclusions and de-duplicating images. */
export function walkContext(graph: Graph, partition: Partition, options: WalkOptions, sink: ContextSink): void {
  const target = partition.target;
  const excluded = target.excludedParts.length > 0 ? new Set(target.excludedParts) : null;
  const seenAttachments = new Set<string>();
  const isExcluded = (node: CanvasNode, part: PartKind) =>
    excluded !== null && (excluded.has(node.id) || excluded.has(`${node.id}:${part}`));
  const digests = sink.wantsDigests;
  const cachedText = (node: CanvasNode, part: PartKind, key: TextKey) =>
    sink.text(`${node.id}:${part}`, nodeText(node, key) ?? '', digests ? digestOf(node, key) : '');
  const images = (hashes: readonly string[]) => {
    for (const hash of hashes) {
      const partId = `attachment:${hash}`;
      if (seenAttachments.has(hash) || (excluded !== null && excluded.has(partId))) continue;
      seenAttachments.add(hash);
      sink.image(partId, hash, graph.attachments.get(hash)?.mediaType ?? 'application/octet-stream');
    }
  };

  for (const node of partition.materials) {
    if (isExcluded(node, 'material')) continue;
    sink.begin(node, 'materials', 'user', 'material');
    cachedText(node, 'material', 'material');
    const image = materialImage(node);
    if (image) images([image]);
    sink.end();
  }

  for (const { node, depth } of partition.references) {
    if (isExcluded(node, 'reference')) continue;
    const key = `${node.id}|${depth}`;
    let block = options.referenceMemo?.get(key);
    if (!block) {
      block = { text: referenceText(graph, node, depth, options.stale), digest: '' };
      options.referenceMemo?.set(key, block);
    }
    if (digests && block.digest === '') block.digest = sha256Hex(block.text);
    sink.begin(node, 'references', 'user', 'reference');
    sink.text(`${node.id}:reference`, block.text, block.digest);
    sink.end();
  }

  for (const node of partition.chain) {
    if (node.kind === 'note') {
      if (isExcluded(node, 'note')) continue;
      sink.begin(node, 'chain', 'user', 'note');
      cachedText(node, 'note', 'note');
      sink.end();
      continue;
    }
    if (!isExcluded(node, 'question')) {
      sink.begin(node, 'chain', 'user', 'question');
      cachedText(node, 'question', 'question');
      if (node.kind === 'question') images(node.attachments);
      sink.end();
    }
    sink.begin(node, 'chain', 'assistant', 'answer');
    if (nodeText(node, 'answer') !== null && !isExcluded(node, 'answer')) {
      if (options.stale.has(node.id)) {
        const text = `${STALE_MARK}\n${nodeText(node, 'answer')}`;
        sink.text(`${node.id}:answer`, text, digests ? sha256Hex(text) : '');
      } else {
        cachedText(node, 'answer', 'answer');
      }
    }
    if (nodeText(node, 'execution') !== null && !isExcluded(node, 'execution')) cachedText(node, 'execution', 'execution');
    sink.end();
  }

  // The question last; in fingerprint mode the node's own content is blanked.
  sink.begin(target, 'question', 'user', 'question');
  if (options.blankOwn) {
    sink.text(`${target.id}:question`, '', EMPTY_DIGEST);
  } else {
    cachedText(target, 'question', 'question');
    if (target.kind === 'question') images(target.attachments);
  }
  sink.end();
}

/** Builds messages and their sources; with `keepDigests`, a digest per content part too. */
export class MessageSink implements ContextSink {
  readonly messages: RequestMessage[] = [];
  readonly sources: CompiledSource[] = [];
  readonly digests: string[][] = [];
  readonly attachments: string[] = [];
  private content: RequestPart[] = [];
  private partIds: string[] = [];
  private partDigests: string[] = [];
  private node: CanvasNode | null = null;
  private layer: ContextLayer = 'chain';
  private part: PartKind = 'question';
  private role: RequestMessage['role'] = 'user';

  constructor(readonly wantsDigests = false) {}

  begin(node: CanvasNode, layer: ContextLayer, role: RequestMessage['role'], part: PartKind): void {
    this.node = node;
    this.layer = layer;
    this.part = part;
    this.role = role;
    this.content = [];
    this.partIds = [];
    if (this.wantsDigests) this.partDigests = [];
  }

  text(partId: string, text: string, digest: string): void {
    this.content.push({ type: 'text', text });
    this.partIds.push(partId);
    if (this.wantsDigests) this.partDigests.push(digest);
  }

  image(partId: string, hash: string, mediaType: string): void {
    this.content.push({ type: 'image', hash, mediaType });
    this.partIds.push(partId);
    if (this.wantsDigests) this.partDigests.push(imageDigest(hash, mediaType));
    this.attachments.push(hash);
  }

  end(): void {
    const node = this.node;
    if (this.content.length === 0 || node === null) return;
    this.messages.push({ role: this.role, content: this.content });
    this.sources.push({ nodeId: node.id, layer: this.layer, part: this.part, partId: `${node.id}:${this.part}`, contentPartIds: this.partIds });
    if (this.wantsDigests) this.digests.push(this.partDigests);
  }
}

export function imageDigest(hash: string, mediaType: string): string {
  return `image:${hash}:${mediaType}`;
}
