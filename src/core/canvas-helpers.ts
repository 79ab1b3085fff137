import type { CanvasNode, QuestionAuthor } from '../../protocol/index.ts';
import type { ChangeContext, GraphChange, Position } from './changes.ts';
import type { Graph } from './graph.ts';
import { freeFrom, graphBoxes, CARD_SIZE } from './free-beside.ts';
import { GraphError } from './graph-error.ts';
import { isLive } from './live.ts';
import { topologicalOrder } from './walk.ts';

/** C33: one helper's changes (applied as one batch, so one undo) and the node(s) it makes. */
export interface HelperPlan {
  change: GraphChange;
  /** Ids of the nodes the batch creates, in order. */
  created: string[];
}

export const SYNTHESIS_QUESTION =
  'Synthesize the answers above into one account: where they agree, where they differ, and what follows from them.';
export const CONCLUSION_QUESTION =
  'State the conclusion this line of inquiry reaches, in a few sentences, with the reasons it rests on.';

/** The most sub-questions one fan-out makes. */
export const FAN_OUT_LIMIT = 12;

const CARD_WIDTH = 320;
const COLUMN_GAP = 120;
const ROW_GAP = 200;

function wireable(graph: Graph, nodeId: string): CanvasNode | GraphError {
  const node = graph.nodes.get(nodeId);
  if (!node) return new GraphError('not-found', `There is no node ${nodeId} on this canvas.`, { nodeId });
  if (!isLive(node)) return new GraphError('archived', `Node ${nodeId} is archived; unarchive it first.`, { nodeId });
  if (node.kind === 'frame')
    return new GraphError('invalid', 'A frame cannot be wired into a helper node.', { nodeId });
  return node;
}

function nodesOf(graph: Graph, nodeIds: readonly string[], least: number, what: string): CanvasNode[] | GraphError {
  const unique = [...new Set(nodeIds)];
  if (unique.length < least) return new GraphError('invalid', `${what} needs at least ${least} nodes selected.`);
  const nodes: CanvasNode[] = [];
  for (const id of unique) {
    const node = wireable(graph, id);
    if (node instanceof GraphError) return node;
    nodes.push(node);
  }
  return nodes;
}

/** Merge: a new synthesis question to the right of the selection, wired solid from each selected node. */
export function planMerge(
  graph: Graph,
  nodeIds: readonly string[],
  context: Pick<ChangeContext, 'newId'>,
): HelperPlan | GraphError {
  const nodes = nodesOf(graph, nodeIds, 2, 'Merge');
  if (nodes instanceof GraphError) return nodes;
  const id = context.newId();
  const right = Math.max(...nodes.map((node) => node.position.x + (node.size?.width ?? CARD_WIDTH)));
  const middle = nodes.reduce((sum, node) => sum + node.position.y, 0) / nodes.length;
  const changes: GraphChange[] = [
    {
      type: 'add-node',
      node: {
        kind: 'question',
        id,
        question: SYNTHESIS_QUESTION,
        questionAuthor: 'app',
        position: freeFrom({ x: right + COLUMN_GAP, y: middle }, graphBoxes(graph)),
      },
    },
    ...ordered(graph, nodes).map((node): GraphChange => ({ type: 'wire', from: node.id, to: id, kind: 'solid' })),
  ];
  return { change: { type: 'batch', changes }, created: [id] };
}

/**
 * Condense: the selection must be one chain (each node wired solid into the next); a conclusion question is
 * placed above it and wired solid from its last node, which brings the whole chain into its context.
 */
export function planCondense(
  graph: Graph,
  nodeIds: readonly string[],
  context: Pick<ChangeContext, 'newId'>,
): HelperPlan | GraphError {
  const nodes = nodesOf(graph, nodeIds, 2, 'Condense');
  if (nodes instanceof GraphError) return nodes;
  const chain = ordered(graph, nodes);
  for (let index = 1; index < chain.length; index += 1) {
    const from = chain[index - 1]!.id;
    const to = chain[index]!.id;
    const linked = [...graph.wires.values()].some(
      (wire) => wire.kind === 'solid' && wire.from === from && wire.to === to,
    );
    if (!linked)
      return new GraphError('invalid', 'Condense needs a chain: each selected node wired solid into the next.', {
        nodeId: to,
      });
  }
  const id = context.newId();
  const top = Math.min(...chain.map((node) => node.position.y));
  const centre = chain.reduce((sum, node) => sum + node.position.x, 0) / chain.length;
  // Above the chain, stepping further up past any card already there.
  const position: Position = freeFrom({ x: centre, y: top - ROW_GAP - 40 }, graphBoxes(graph), CARD_SIZE, 'up');
  const changes: GraphChange[] = [
    {
      type: 'add-node',
      node: { kind: 'question', id, question: CONCLUSION_QUESTION, questionAuthor: 'app', position },
    },
    { type: 'wire', from: chain[chain.length - 1]!.id, to: id, kind: 'solid' },
  ];
  return { change: { type: 'batch', changes }, created: [id] };
}

/** Who proposed a fan-out's sub-questions (C14): the lines as proposed, and who wrote them. */
export interface FanOutProposal {
  questions: readonly string[];
  /** `model`: the node's model proposed them; `app`: Weft's rule did. */
  author: Exclude<QuestionAuthor, 'person'>;
}

/**
 * Fan out: one new question per edited sub-question, in a column to the right, each wired solid from the source.
 * A sub-question kept exactly as proposed is the proposer's (`model` / `app`), one the person typed or changed is
 * theirs; with no proposal every line is the person's.
 */
export function planFanOut(
  graph: Graph,
  sourceId: string,
  subQuestions: readonly string[],
  context: Pick<ChangeContext, 'newId'>,
  proposal?: FanOutProposal,
): HelperPlan | GraphError {
  const source = wireable(graph, sourceId);
  if (source instanceof GraphError) return source;
  if (source.kind !== 'question' && source.kind !== 'mirror')
    return new GraphError('invalid', 'Only a question can be fanned out.', { nodeId: sourceId });
  const questions = subQuestions.map((question) => question.trim()).filter((question) => question.length > 0);
  if (questions.length === 0) return new GraphError('invalid', 'A fan-out needs at least one sub-question.');
  if (questions.length > FAN_OUT_LIMIT)
    return new GraphError(
      'invalid',
      `A fan-out makes at most ${FAN_OUT_LIMIT} sub-questions, not ${questions.length}.`,
    );
  const x = source.position.x + (source.size?.width ?? CARD_WIDTH) + COLUMN_GAP;
  const top = source.position.y - ((questions.length - 1) * ROW_GAP) / 2;
  const proposed = new Set(proposal?.questions.map((question) => question.trim()));
  const created: string[] = [];
  const changes: GraphChange[] = [];
  // Each card steps down past existing children (and the cards placed before it) until its spot is free.
  const taken = graphBoxes(graph);
  questions.forEach((question, index) => {
    const position = freeFrom({ x, y: top + index * ROW_GAP }, taken);
    taken.push({ ...position, ...CARD_SIZE });
    const id = context.newId();
    created.push(id);
    const questionAuthor = proposal && proposed.has(question) ? proposal.author : 'person';
    changes.push({
      type: 'add-node',
      node: { kind: 'question', id, question, questionAuthor, position },
    });
    changes.push({ type: 'wire', from: sourceId, to: id, kind: 'solid' });
  });
  return { change: { type: 'batch', changes }, created };
}

/** The nodes in dependency order (solid wires among them), ties by creation time then id. */
function ordered(graph: Graph, nodes: readonly CanvasNode[]): CanvasNode[] {
  return topologicalOrder(graph, new Set(nodes.map((node) => node.id)), 'solid').map((id) => graph.nodes.get(id)!);
}
