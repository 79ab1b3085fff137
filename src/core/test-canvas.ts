import type {
  MaterialProvenance,
  MirrorNode,
  Version,
  CanonicalRequest,
  DispatchLane,
  CanvasDocument,
  QuestionAuthor,
  QuestionNode,
} from '../../protocol/index.ts';
import { questionAuthor } from '../../protocol/index.ts';
import { applyChange } from './apply-change.ts';
import { askedQuestion } from './asked-question.ts';
import { buildRequest, type BuiltRequest } from './build-request.ts';
import type { ApplyOutcome, ChangeContext, GraphChange, NodePatch } from './changes.ts';
import { compile } from './compile.ts';
import type { CompiledContext } from './compiled-context.ts';
import { upstreamSnapshot } from './fingerprint.ts';
import { documentFromGraph, emptyGraph, graphFromDocument, type Graph } from './graph.ts';
import type { GraphError } from './graph-error.ts';
import { jsHashPort } from './hash-port.ts';
import type { RecordedCommit } from './memory/exchange-from-canvas.ts';
import type { Result } from './result.ts';
import { shownStale } from './shown-stale.ts';
import { StaleTracker } from './stale-tracker.ts';

export interface TestCanvasOptions {
  /** First clock reading (ms); each change advances the clock by `step`. */
  start?: number;
  step?: number;
  /** Prefix of generated ids (`n1`, `n2`…). */
  idPrefix?: string;
  document?: CanvasDocument;
}

/**
 * A driver that reads like a person using the canvas — add a question, answer it, wire,
 * edit, archive, dispatch — with a deterministic clock and id generator. Every action goes
 * through `applyChange`; staleness is tracked incrementally, as the app does.
 */
export class TestCanvas {
  graph: Graph;
  readonly tracker: StaleTracker;
  private clock: number;
  private readonly step: number;
  private counter = 0;
  private readonly prefix: string;

  constructor(options: TestCanvasOptions = {}) {
    this.clock = options.start ?? 1_700_000_000_000;
    this.step = options.step ?? 1000;
    this.prefix = options.idPrefix ?? 'n';
    this.graph = options.document
      ? graphFromDocument(options.document)
      : emptyGraph({ id: 'canvas-test', name: 'Test canvas', workingDirectory: null, createdAt: this.clock });
    this.tracker = new StaleTracker(this.graph);
  }

  /** The context of the next change: the clock ticks once, ids count up. */
  context(): ChangeContext {
    this.clock += this.step;
    return { now: this.clock, newId: () => `${this.prefix}${++this.counter}` };
  }

  now(): number {
    return this.clock;
  }

  tryApply(change: GraphChange): Result<ApplyOutcome, GraphError> {
    const result = applyChange(this.graph, change, this.context());
    if (result.ok) {
      this.graph = result.value.graph;
      this.tracker.update(this.graph, result.value.touched);
    }
    return result;
  }

  apply(change: GraphChange): ApplyOutcome {
    const result = this.tryApply(change);
    if (!result.ok) throw result.error;
    return result.value;
  }

  addQuestion(question: string, options: { id?: string; attachments?: string[]; autoRerun?: number } = {}): string {
    return this.apply({
      type: 'add-node',
      node: {
        kind: 'question',
        question,
        ...(options.id ? { id: options.id } : {}),
        ...(options.attachments ? { attachments: options.attachments } : {}),
        ...(options.autoRerun ? { autoRerun: { enabled: true, rounds: options.autoRerun } } : {}),
      },
    }).created[0]!;
  }

  addNote(text: string, id?: string): string {
    return this.apply({ type: 'add-node', node: { kind: 'note', text, ...(id ? { id } : {}) } }).created[0]!;
  }

  addMaterial(title: string, text: string, provenance: MaterialProvenance = { type: 'pasted' }, id?: string): string {
    return this.apply({
      type: 'import-material',
      material: { kind: 'material', title, text, provenance, ...(id ? { id } : {}) },
    }).created[0]!;
  }

  addFrame(label: string): string {
    return this.apply({ type: 'add-node', node: { kind: 'frame', label } }).created[0]!;
  }

  addMirror(source: MirrorNode['source'], id?: string): string {
    return this.apply({ type: 'add-node', node: { kind: 'mirror', source, ...(id ? { id } : {}) } }).created[0]!;
  }

  /** Solid by default; `'quote'` or `'full'` for a dashed reference. */
  wire(from: string, to: string, kind: 'solid' | 'quote' | 'full' = 'solid'): string {
    const change: GraphChange =
      kind === 'solid'
        ? { type: 'wire', from, to, kind: 'solid' }
        : { type: 'wire', from, to, kind: 'dashed', depth: kind };
    return this.apply(change).events[0]!.objectId;
  }

  unwire(from: string, to: string): void {
    const wire = [...this.graph.wires.values()].find((item) => item.from === from && item.to === to);
    if (!wire) throw new Error(`no wire ${from} → ${to}`);
    this.apply({ type: 'unwire', wireId: wire.id });
  }

  edit(nodeId: string, patch: NodePatch): void {
    this.apply({ type: 'edit-node', nodeId, patch });
  }

  archive(nodeId: string): void {
    this.apply({ type: 'archive', nodeId });
  }

  unarchive(nodeId: string): void {
    this.apply({ type: 'unarchive', nodeId });
  }

  delete(nodeId: string): void {
    this.apply({ type: 'delete-node', nodeId });
  }

  exclude(nodeId: string, partId: string): void {
    this.apply({ type: 'exclude-part', nodeId, partId });
  }

  /**
   * Answers a question as a model would: the version records the fingerprint and parts of the
   * upstream as it is now, and the hash of the request that was sent.
   */
  answer(nodeId: string, text: string, options: { model?: string; origin?: Version['origin'] } = {}): string {
    const model = options.model ?? 'test/model';
    const built = this.dispatch(nodeId, { model });
    const node = this.graph.nodes.get(nodeId);
    const outcome = this.apply({
      type: 'add-version',
      nodeId,
      version: {
        text,
        question: node && (node.kind === 'question' || node.kind === 'mirror') ? node.question : '',
        // As the store's runner does (C14): who wrote the question, frozen with the version.
        ...(node?.kind === 'question' ? { questionAuthor: questionAuthor(node) } : {}),
        model,
        requestHash: built.requestHash,
        ...upstreamSnapshot(this.graph, nodeId),
        origin: options.origin ?? 'generated',
        status: 'complete',
        branchOf: null,
        role: this.compiled(nodeId).role,
      },
    });
    return String(outcome.events[0]!.meta.versionId);
  }

  /**
   * What the server's commit ledger holds once it committed a version's request and streamed its answer: the
   * question and answer hashes of the version as stored, and the question's author as the server could tell it.
   */
  recordedCommit(nodeId: string, versionId: string, author: QuestionAuthor | null = null): RecordedCommit {
    const node = this.graph.nodes.get(nodeId);
    const version = node?.kind === 'question' ? node.versions.find((each) => each.id === versionId) : undefined;
    if (!version) throw new Error(`${nodeId} has no version ${versionId}`);
    return {
      canvasId: this.graph.canvas.id,
      nodeId,
      questionHash: jsHashPort.sha256Hex(askedQuestion(node as QuestionNode, version.question)),
      answerHash: jsHashPort.sha256Hex(version.text),
      questionAuthor: author,
    };
  }

  /** Records a stale judge verdict against the node's current fingerprint. */
  judge(nodeId: string, probability: number, reason = 'unrelated change'): void {
    const fingerprint = this.tracker.fingerprints.get(nodeId);
    if (!fingerprint) throw new Error(`${nodeId} has no fingerprint (not answered or archived)`);
    this.apply({ type: 'set-dismissal', nodeId, fingerprint, probability, reason });
  }

  /** Compiles as every request path does: with the shown stale set. */
  compiled(nodeId: string): CompiledContext {
    return compile(this.graph, nodeId, { stale: this.shownStale() });
  }

  /** The compiled context as `role: text` blocks, for golden files and readable assertions. */
  transcript(nodeId: string): string {
    return this.compiled(nodeId)
      .messages.map((message) => {
        const body = message.content.map((part) =>
          part.type === 'text' ? part.text : `<image ${part.hash} ${part.mediaType}>`,
        );
        return `--- ${message.role}\n${body.join('\n')}`;
      })
      .join('\n');
  }

  /** Builds the request, records its `commit` event, returns what was sent. */
  dispatch(
    nodeId: string,
    options: { model?: string; lane?: DispatchLane; memoryBlock?: string; recallBlock?: string } = {},
  ): BuiltRequest {
    const built = buildRequest(this.compiled(nodeId), {
      model: options.model ?? 'test/model',
      lane: options.lane ?? 'chat',
      memoryBlock: options.memoryBlock ?? null,
      recallBlock: options.recallBlock ?? null,
    });
    this.apply({ type: 'record', event: built.commit });
    return built;
  }

  request(nodeId: string): CanonicalRequest {
    return buildRequest(this.compiled(nodeId), { model: 'test/model' }).request;
  }

  shownStale(): Set<string> {
    return shownStale(this.graph, this.tracker);
  }

  /** Sorted ids, for stable assertions. */
  staleIds(): string[] {
    return [...this.shownStale()].sort();
  }

  eventOps(): string[] {
    return this.graph.events.map((event) => event.op);
  }

  document(): CanvasDocument {
    return documentFromGraph(this.graph);
  }

  /** Throws (with both sides) unless the shown stale set is exactly `expected`. */
  assertStale(expected: readonly string[]): void {
    assertEqual('shown stale set', this.staleIds(), [...expected].sort());
  }

  /** Throws unless the event log's ops, in order, end with `expected`. */
  assertLastEvents(expected: readonly string[]): void {
    assertEqual('last events', this.eventOps().slice(-expected.length), [...expected]);
  }

  /** Throws unless the compiled context of `nodeId` reads exactly `expected` (see `transcript`). */
  assertTranscript(nodeId: string, expected: string): void {
    assertEqual(`transcript of ${nodeId}`, this.transcript(nodeId), expected);
  }
}

function assertEqual(what: string, actual: unknown, expected: unknown): void {
  const left = JSON.stringify(actual);
  const right = JSON.stringify(expected);
  if (left !== right) throw new Error(`${what}: expected ${right}, got ${left}`);
}
