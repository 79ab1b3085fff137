import type { MirrorNode, NoteAuthor } from '../../protocol/index.ts';
import {
  buildRequest,
  documentFromGraph,
  emptyCanvasDocument,
  graphFromDocument,
  planFanOut,
} from '../../src/core/index.ts';
import { TestCanvas } from '../../src/core/test-canvas.ts';
import { commitTarget } from '../../server/commit-target.ts';
import type { ServerContext } from '../../server/server-context.ts';

/** The texts of one ask as a person would have set it up on a canvas. */
export interface ExchangeTexts {
  question: string;
  answer?: string;
  /** Notes wired solid into the question; a string is the person's. */
  notes?: (string | { text: string; author: NoteAuthor })[];
  materials?: string[];
  /** Mirrored agent turns wired into the question (their answers). */
  mirrors?: string[];
  /** Whether the version records that the [Memory] block was sent. */
  memorySent?: boolean;
}

/** What `POST /api/memory/judge` names. */
export interface StoredExchange {
  canvasId: string;
  nodeId: string;
  versionId: string;
  commitHash: string;
}

function mirrorSource(answer: string): MirrorNode['source'] {
  return {
    runner: 'claude-code',
    sessionId: 'session-1',
    turnKey: `turn-${answer.length}`,
    turnNumber: 1,
    question: 'Continue.',
    answer,
    model: null,
    at: null,
    steps: [],
    delegatedBy: null,
  };
}

/**
 * Stores asks on a real test server the way the app does (the canvas record holds the question node, its
 * generated version with the commit hash, and what was wired in), so memory tests judge what the server reads.
 * Given the server's context, each ask is also recorded in its commit ledger as `/api/generate` records it
 * (`commitTarget` on the same canonical request, then the answer's hash) — the model call is all it skips.
 */
export class StoredExchanges {
  private readonly canvases = new Map<string, { canvas: TestCanvas; revision: string | null }>();
  /** Ledger appends of asks not saved yet: recorded just before the save that stores them, as the app's order. */
  private pending: (() => Promise<void>)[] = [];

  constructor(
    private readonly server: {
      api(path: string, init?: RequestInit): Promise<Response>;
      context?: Pick<ServerContext, 'canvases' | 'commits' | 'hash'>;
    },
  ) {}

  async store(canvasId: string, texts: ExchangeTexts): Promise<StoredExchange> {
    const entry = this.canvases.get(canvasId) ?? {
      canvas: new TestCanvas({
        document: emptyCanvasDocument({ id: canvasId, name: canvasId, workingDirectory: null, createdAt: 1 }),
        idPrefix: `${canvasId}-`,
      }),
      revision: null,
    };
    const { canvas } = entry;
    const nodeId = canvas.addQuestion(texts.question);
    for (const note of texts.notes ?? []) {
      const { text, author } = typeof note === 'string' ? { text: note, author: 'person' as const } : note;
      const id = canvas.apply({ type: 'add-node', node: { kind: 'note', text, author } }).created[0]!;
      canvas.wire(id, nodeId);
    }
    for (const [index, text] of (texts.materials ?? []).entries())
      canvas.wire(canvas.addMaterial(`Material ${index + 1}`, text), nodeId);
    for (const text of texts.mirrors ?? []) canvas.wire(canvas.addMirror(mirrorSource(text)), nodeId);
    const versionId = this.answered(canvas, canvasId, nodeId, texts.answer ?? 'Here is an answer.');
    const document = documentFromGraph(canvas.graph);
    const node = document.nodes.find((each) => each.id === nodeId);
    const version = node?.kind === 'question' ? node.versions.find((each) => each.id === versionId) : undefined;
    if (!version?.requestHash) throw new Error('the stored exchange has no commit hash');
    if (texts.memorySent) {
      version.memorySent = true;
      canvas.graph = graphFromDocument(document);
    }
    this.canvases.set(canvasId, entry);
    await this.save(canvasId);
    return { canvasId, nodeId, versionId, commitHash: version.requestHash };
  }

  /**
   * A fan-out as the app makes it (core's `planFanOut`): `proposed` is what the model proposed, `kept` the lines
   * the person made nodes of (unchanged lines stay the model's). Each kept question is asked once; returns the asks.
   */
  async storeFanOut(canvasId: string, source: string, proposed: string[], kept: string[]): Promise<StoredExchange[]> {
    await this.store(canvasId, { question: source });
    const { canvas } = this.canvases.get(canvasId)!;
    const sourceId = this.nodesOf(canvasId, 'question').at(-1)!;
    const plan = planFanOut(canvas.graph, sourceId, kept, canvas.context(), { questions: proposed, author: 'model' });
    if (!('change' in plan)) throw plan;
    const made = canvas.apply(plan.change).created;
    const asks = made.map((nodeId) => this.answerOf(canvas, nodeId, canvasId));
    await this.save(canvasId);
    return asks;
  }

  /** Asks a stored question again (after an edit, say), saved like the page does. */
  async ask(canvasId: string, nodeId: string): Promise<StoredExchange> {
    const { canvas } = this.canvases.get(canvasId)!;
    const stored = this.answerOf(canvas, nodeId, canvasId);
    await this.save(canvasId);
    return stored;
  }

  /** `canvas.answer`, with the commit the server would record for it queued for the ledger. */
  private answered(canvas: TestCanvas, canvasId: string, nodeId: string, answer: string): string {
    const built = buildRequest(canvas.compiled(nodeId), { model: 'test/model', lane: 'chat' });
    const versionId = canvas.answer(nodeId, answer);
    const context = this.server.context;
    if (!context) return versionId;
    this.pending.push(async () => {
      const target = await commitTarget(context, { canvasId, nodeId }, built.request);
      if (!target.ok) throw new Error(target.message);
      const seq = await context.commits.commit({ requestHash: built.requestHash, ...target.fields });
      await context.commits.answered(seq, context.hash.sha256Hex(answer));
    });
    return versionId;
  }

  private answerOf(canvas: TestCanvas, nodeId: string, canvasId: string): StoredExchange {
    const versionId = this.answered(canvas, canvasId, nodeId, 'Here is an answer.');
    const node = canvas.graph.nodes.get(nodeId);
    const version = node?.kind === 'question' ? node.versions.find((each) => each.id === versionId) : undefined;
    if (!version?.requestHash) throw new Error('the stored exchange has no commit hash');
    return { canvasId, nodeId, versionId, commitHash: version.requestHash };
  }

  /** A later change to a stored canvas (a person editing a note after the ask, say), saved like the page does. */
  async update(canvasId: string, change: (canvas: TestCanvas) => void): Promise<void> {
    const entry = this.canvases.get(canvasId);
    if (!entry) throw new Error(`no stored canvas ${canvasId}`);
    change(entry.canvas);
    await this.save(canvasId);
  }

  /** The stored canvas's node ids by kind, in the order they were added. */
  nodesOf(canvasId: string, kind: string): string[] {
    const graph = this.canvases.get(canvasId)?.canvas.graph;
    return graph ? [...graph.nodes.values()].filter((node) => node.kind === kind).map((node) => node.id) : [];
  }

  private async save(canvasId: string): Promise<void> {
    for (const record of this.pending.splice(0)) await record();
    const entry = this.canvases.get(canvasId)!;
    const response = await this.server.api(`/api/canvases/${canvasId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...(entry.revision ? { 'if-match': `"${entry.revision}"` } : {}) },
      body: JSON.stringify(documentFromGraph(entry.canvas.graph)),
    });
    if (response.status !== 200) throw new Error(`storing the exchange failed: ${await response.text()}`);
    entry.revision = ((await response.json()) as { revision: string }).revision;
  }
}
