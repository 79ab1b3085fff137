import type { CanvasNode } from '../../protocol/index.ts';
import { STALE_MARK } from './compiled-context.ts';
import type { Graph } from './graph.ts';
import { nodeText } from './node-text.ts';
import { liveSolidChain, type ReferenceDepth } from './partition.ts';
import { sliceWhole, wellFormed } from './well-formed.ts';

const TRAIL_QUESTION_LENGTH = 80;

/**
 * One dashed reference as one fenced block (C5). `quote`: the source's question and answer plus
 * a one-line trail of the questions upstream of it. `full`: the source's whole solid chain
 * (questions, answers, notes; materials stay with the source) ending with the source itself.
 */
export function referenceText(
  graph: Graph,
  node: CanvasNode,
  depth: ReferenceDepth,
  stale: ReadonlySet<string>,
): string {
  const upstream = liveSolidChain(graph, node.id);
  const lines: string[] = [];
  if (depth === 'quote') {
    const trail = upstream
      .filter((item) => item.kind === 'question' || item.kind === 'mirror')
      .map((item) => oneLine(nodeText(item, 'question') ?? ''));
    if (trail.length > 0) lines.push(`Trail: ${trail.join(' → ')}`);
    lines.push(entryText(node, stale));
  } else {
    for (const item of [...upstream, node]) lines.push(entryText(item, stale));
  }
  const body = depth === 'quote' ? lines.join('\n') : lines.join('\n\n');
  const fence = fenceFor(body);
  const title = depth === 'quote' ? 'quoted answer' : 'full chain';
  // Note texts are raw node fields: keep the block well-formed like every other context text.
  return wellFormed(`[Reference (${title})]\n${fence}\n${body}\n${fence}`);
}

function entryText(node: CanvasNode, stale: ReadonlySet<string>): string {
  if (node.kind === 'note') return `Note: ${node.text}`;
  const answer = nodeText(node, 'answer');
  const marked = answer === null ? '(not answered yet)' : stale.has(node.id) ? `${STALE_MARK}\n${answer}` : answer;
  const execution = nodeText(node, 'execution');
  return `Question: ${nodeText(node, 'question') ?? ''}\nAnswer: ${marked}${execution ? `\n${execution}` : ''}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // Cut before a surrogate pair rather than through it (half a pair has no canonical JSON form).
  return flat.length > TRAIL_QUESTION_LENGTH ? `${sliceWhole(flat, TRAIL_QUESTION_LENGTH - 1)}…` : flat;
}

/** A backtick fence longer than any run inside the body, so the block cannot be closed early. */
function fenceFor(body: string): string {
  let longest = 0;
  for (const match of body.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}
