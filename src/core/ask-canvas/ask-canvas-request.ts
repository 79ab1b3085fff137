import type {
  AskCanvasLayers,
  AskCanvasTurn,
  CanonicalRequest,
  CanvasNode,
  RequestMessage,
  RequestPart,
} from '../../../protocol/index.ts';
import { imagePlaceholder } from '../build-request.ts';
import { compile } from '../compile.ts';
import { STALE_MARK } from '../compiled-context.ts';
import type { EventDraft } from '../event-log.ts';
import type { Graph } from '../graph.ts';
import type { HashPort } from '../hash-port.ts';
import { hashCanonical } from '../hashing.ts';
import { isLive } from '../live.ts';
import { wellFormed } from '../well-formed.ts';
import { canvasOutline } from './canvas-outline.ts';
import { chatWindow } from './chat-window.ts';

/** The fixed instructions every ask of the canvas starts with (part of the hashed request). */
export const ASK_CANVAS_INSTRUCTIONS = [
  'You answer questions about the person’s canvas in Weft: questions, notes and materials wired into a graph.',
  'The outline numbers every live node (#N) with its status and the numbers of its parents. Cite the nodes you',
  'rely on by number, as [N]. An answer marked [Stale: …] or [stale] was written against an earlier version of its',
  'upstream: say so when it matters. Only the focused node’s context is given in full; say when the outline is',
  'not enough to answer.',
].join(' ');

/** What one request message is, for the preview's labels (parallel to `request.messages`). */
export interface AskCanvasPart {
  kind: 'instructions' | 'outline' | 'focus' | 'materials' | 'references' | 'chain' | 'earlier-turn' | 'question';
  /** The node the message came from (focus, materials, references, chain), else null. */
  nodeId: string | null;
}

export interface AskCanvasInput {
  question: string;
  /** The node open in the panel; its chain, materials and references go out in full. */
  focusId: string | null;
  /** The canvas's stored chat, oldest first; the last eight answered turns go out (`chatWindow`). */
  turns: readonly AskCanvasTurn[];
  /** The shown stale set (`shownStale`): the outline's [stale] and the chain's stale marks. */
  stale: ReadonlySet<string>;
  model: string;
  /** Whether the model takes images; when false each image becomes core's named placeholder. Default true. */
  images?: boolean;
  hash?: HashPort;
}

export interface AskCanvasPlan {
  request: CanonicalRequest;
  /** C9: SHA-256 over RFC 8785 canonical JSON of `request`, as the server recomputes it. */
  requestHash: string;
  parts: AskCanvasPart[];
  layers: AskCanvasLayers;
  /** The focused node's number in the outline, or null when nothing (live, not a frame) is focused. */
  focusNumber: number | null;
  /** How many earlier turns ride along. */
  window: number;
  /** Image hashes in order (their bytes are sent beside the request when the model takes images). */
  attachments: string[];
}

const text = (value: string): RequestPart => ({ type: 'text', text: wellFormed(value) });

function currentAnswer(node: CanvasNode): string | null {
  if (node.kind === 'mirror') return node.answer || null;
  if (node.kind !== 'question') return null;
  const current = node.versions.find((version) => version.id === node.currentVersionId);
  return current && current.status === 'complete' ? current.text : null;
}

/**
 * C17: the request of one ask of the canvas, assembled in a fixed order — instructions; the outline of every live
 * node; the focused node with its materials, references and chain exactly as `compile` builds them (its own
 * answer after its question, stale-marked like any other); the last eight answered turns; the question. Pure: the
 * same canvas, chat and question give the same bytes and hash.
 */
export function askCanvasRequest(graph: Graph, input: AskCanvasInput): AskCanvasPlan {
  const focusNode = input.focusId ? graph.nodes.get(input.focusId) : undefined;
  const focus = focusNode && isLive(focusNode) && focusNode.kind !== 'frame' ? focusNode : null;
  const outline = canvasOutline(graph, input.stale, focus?.id ?? null);
  const messages: RequestMessage[] = [];
  const parts: AskCanvasPart[] = [];
  const layers: AskCanvasLayers = {
    outline: outline.entries.map((entry) => entry.nodeId),
    chain: [],
    materials: [],
    references: [],
  };
  const attachments: string[] = [];
  const add = (message: RequestMessage, part: AskCanvasPart) => {
    messages.push(message);
    parts.push(part);
  };
  const once = (list: string[], id: string) => list.includes(id) || list.push(id);
  add({ role: 'system', content: [text(ASK_CANVAS_INSTRUCTIONS)] }, { kind: 'instructions', nodeId: null });
  add({ role: 'user', content: [text(outline.text)] }, { kind: 'outline', nodeId: null });

  const focusNumber = focus ? outline.numberOf.get(focus.id)! : null;
  if (focus && (focus.kind === 'question' || focus.kind === 'mirror')) {
    add(
      {
        role: 'user',
        content: [text(`[Focused node #${focusNumber}: its context as Weft compiles it for that node]`)],
      },
      { kind: 'focus', nodeId: focus.id },
    );
    const compiled = compile(graph, focus.id, { stale: input.stale });
    compiled.messages.forEach((message, index) => {
      const source = compiled.sources[index]!;
      // The node's role is its own system prompt, not part of what the canvas says.
      if (source.layer === 'role') return;
      const layer = source.layer === 'question' ? 'chain' : source.layer;
      const content = message.content.map((part): RequestPart => {
        if (part.type === 'text') return part;
        if (input.images === false) return { type: 'text', text: imagePlaceholder(part.hash, part.mediaType) };
        if (!attachments.includes(part.hash)) attachments.push(part.hash);
        return part;
      });
      add({ role: message.role, content }, { kind: layer, nodeId: source.nodeId });
      once(layers[layer], source.nodeId);
    });
    const answer = currentAnswer(focus);
    if (answer !== null) {
      const marked = input.stale.has(focus.id) ? `${STALE_MARK}\n${answer}` : answer;
      add({ role: 'assistant', content: [text(marked)] }, { kind: 'chain', nodeId: focus.id });
    }
  } else if (focus) {
    const body =
      focus.kind === 'note'
        ? `[Focused node #${focusNumber}: a note]\n${focus.text}`
        : focus.kind === 'material'
          ? `[Focused node #${focusNumber}: material “${focus.title}”]\n${focus.text}`
          : '';
    add({ role: 'user', content: [text(body)] }, { kind: 'focus', nodeId: focus.id });
    once(focus.kind === 'material' ? layers.materials : layers.chain, focus.id);
  }

  const window = chatWindow(input.turns);
  for (const turn of window) {
    add({ role: 'user', content: [text(turn.question)] }, { kind: 'earlier-turn', nodeId: null });
    add({ role: 'assistant', content: [text(turn.answer)] }, { kind: 'earlier-turn', nodeId: null });
  }
  add({ role: 'user', content: [text(input.question)] }, { kind: 'question', nodeId: null });

  const request: CanonicalRequest = { model: input.model, messages, tools: {} };
  return {
    request,
    requestHash: hashCanonical(request, input.hash),
    parts,
    layers,
    focusNumber,
    window: window.length,
    attachments,
  };
}

/** C10: the `ask-canvas` event of one turn — its hash, model and how many nodes went out in each layer; no text. */
export function askCanvasEvent(turnId: string, plan: AskCanvasPlan, focusId: string | null): EventDraft {
  return {
    op: 'ask-canvas',
    objectId: turnId,
    meta: {
      requestHash: plan.requestHash,
      model: plan.request.model,
      messageCount: plan.request.messages.length,
      focus: focusId,
      outline: plan.layers.outline.length,
      chain: plan.layers.chain.length,
      materials: plan.layers.materials.length,
      references: plan.layers.references.length,
      turns: plan.window,
    },
  };
}
