import type { CanvasNode, RequestMessage, RequestPart } from '../../protocol/index.ts';
import { STALE_MARK, type CompiledSource, type ContextLayer, type PartKind } from './compiled-context.ts';
import type { Graph } from './graph.ts';
import { jsHashPort, type HashPort } from './hash-port.ts';
import { digestOf, materialImage, nodeText, partIdOf, type TextKey } from './node-text.ts';
import type { Partition, ReferenceDepth } from './partition.ts';
import { referenceText } from './reference-block.ts';
import { resolveRole, type ResolvedRole } from './resolve-role.ts';
import { wellFormed } from './well-formed.ts';

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
  /** SHA-256 for part digests (only read when the sink wants digests); the JavaScript port if absent. */
  hash?: HashPort;
}

/** SHA-256 of no bytes: the blanked own question's digest, whatever the port. */
const EMPTY_DIGEST = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * Emits the messages of one compiled context into a sink, layer by layer, holding what the
 * layers share: the target's exclusions and the attachments already shown (de-duplication).
 */
export class ContextEmitter {
  private readonly excluded: Set<string> | null;
  private readonly hash: HashPort;
  /** C29: set by `role()`; `none` until then. */
  resolvedRole: ResolvedRole = { kind: 'none' };

  constructor(
    private readonly graph: Graph,
    private readonly target: CanvasNode,
    private readonly options: WalkOptions,
    private readonly sink: ContextSink,
    /** Attachment hashes already in context; passed in when extending a known prefix. */
    readonly seenAttachments: Set<string> = new Set(),
  ) {
    this.excluded = target.excludedParts.length > 0 ? new Set(target.excludedParts) : null;
    this.hash = options.hash ?? jsHashPort;
  }

  private isExcluded(node: CanvasNode, part: PartKind): boolean {
    return this.excluded !== null && (this.excluded.has(node.id) || this.excluded.has(`${node.id}:${part}`));
  }

  /** `text` is the node's cached text for `key` when the caller has read it already. */
  private cachedText(node: CanvasNode, part: PartKind, key: TextKey, text = nodeText(node, key)): void {
    this.sink.text(partIdOf(node, part), text ?? '', this.sink.wantsDigests ? digestOf(node, key, this.hash) : '');
  }

  private images(hashes: readonly string[]): void {
    for (const hash of hashes) {
      const partId = `attachment:${hash}`;
      if (this.seenAttachments.has(hash) || (this.excluded !== null && this.excluded.has(partId))) continue;
      this.seenAttachments.add(hash);
      // The media type is stored as given; like every text in context it must be well-formed to hash.
      this.sink.image(
        partId,
        hash,
        wellFormed(this.graph.attachments.get(hash)?.mediaType ?? 'application/octet-stream'),
      );
    }
  }

  /** C29: the resolved role as the first message (system), named after the node that set it. */
  role(): void {
    this.resolvedRole = resolveRole(this.graph, this.target.id);
    if (this.resolvedRole.kind !== 'role') return;
    const { text, sourceId } = this.resolvedRole.role;
    const source = this.graph.nodes.get(sourceId)!;
    this.sink.begin(source, 'role', 'system', 'role');
    this.sink.text(partIdOf(source, 'role'), text, this.sink.wantsDigests ? this.hash.sha256Hex(text) : '');
    this.sink.end();
  }

  material(node: CanvasNode): void {
    if (this.isExcluded(node, 'material')) return;
    this.sink.begin(node, 'materials', 'user', 'material');
    this.cachedText(node, 'material', 'material');
    const image = materialImage(node);
    if (image) this.images([image]);
    this.sink.end();
  }

  reference(node: CanvasNode, depth: ReferenceDepth): void {
    if (this.isExcluded(node, 'reference')) return;
    const key = `${node.id}|${depth}`;
    let block = this.options.referenceMemo?.get(key);
    if (!block) {
      block = { text: referenceText(this.graph, node, depth, this.options.stale), digest: '' };
      this.options.referenceMemo?.set(key, block);
    }
    if (this.sink.wantsDigests && block.digest === '') block.digest = this.hash.sha256Hex(block.text);
    this.sink.begin(node, 'references', 'user', 'reference');
    this.sink.text(partIdOf(node, 'reference'), block.text, block.digest);
    this.sink.end();
  }

  /** A question, note or mirror of the solid chain: its question, then its answer. */
  chainNode(node: CanvasNode): void {
    const sink = this.sink;
    if (node.kind === 'note') {
      if (this.isExcluded(node, 'note')) return;
      sink.begin(node, 'chain', 'user', 'note');
      this.cachedText(node, 'note', 'note');
      sink.end();
      return;
    }
    if (!this.isExcluded(node, 'question')) {
      sink.begin(node, 'chain', 'user', 'question');
      this.cachedText(node, 'question', 'question');
      if (node.kind === 'question') this.images(node.attachments);
      sink.end();
    }
    sink.begin(node, 'chain', 'assistant', 'answer');
    const answer = nodeText(node, 'answer');
    if (answer !== null && !this.isExcluded(node, 'answer')) {
      if (this.options.stale.has(node.id)) {
        const text = `${STALE_MARK}\n${answer}`;
        sink.text(partIdOf(node, 'answer'), text, sink.wantsDigests ? this.hash.sha256Hex(text) : '');
      } else {
        this.cachedText(node, 'answer', 'answer', answer);
      }
    }
    const execution = nodeText(node, 'execution');
    if (execution !== null && !this.isExcluded(node, 'execution'))
      this.cachedText(node, 'execution', 'execution', execution);
    sink.end();
  }

  /** The question last; in fingerprint mode the node's own content is blanked. */
  question(): void {
    const target = this.target;
    this.sink.begin(target, 'question', 'user', 'question');
    if (this.options.blankOwn) {
      this.sink.text(partIdOf(target, 'question'), '', EMPTY_DIGEST);
      // #29.4: an "as of" date changes which memory the ask is sent with, so it is part of what its answer rests on;
      // absent (the default), the fingerprint is the one stored before the setting existed.
      const asOf = target.kind === 'question' ? (target.memoryReading?.asOf ?? null) : null;
      if (asOf !== null) {
        const text = `memory-as-of:${asOf}`;
        this.sink.text(partIdOf(target, 'question'), text, this.sink.wantsDigests ? this.hash.sha256Hex(text) : '');
      }
    } else {
      this.cachedText(target, 'question', 'question');
      if (target.kind === 'question') this.images(target.attachments);
    }
    this.sink.end();
  }
}

/** Lays the partition out in C5 order (the role first, C29), honouring exclusions and de-duplicating images. */
export function walkContext(
  graph: Graph,
  partition: Partition,
  options: WalkOptions,
  sink: ContextSink,
): ContextEmitter {
  const emitter = new ContextEmitter(graph, partition.target, options, sink);
  emitter.role();
  for (const node of partition.materials) emitter.material(node);
  for (const { node, depth } of partition.references) emitter.reference(node, depth);
  for (const node of partition.chain) emitter.chainNode(node);
  emitter.question();
  return emitter;
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
    this.sources.push({
      nodeId: node.id,
      layer: this.layer,
      part: this.part,
      partId: partIdOf(node, this.part),
      contentPartIds: this.partIds,
    });
    if (this.wantsDigests) this.digests.push(this.partDigests);
  }
}

export function imageDigest(hash: string, mediaType: string): string {
  return `image:${hash}:${mediaType}`;
}
