import type { CanvasNode } from '../../../protocol/index.ts';
import type { Graph } from '../graph.ts';
import { isLive } from '../live.ts';
import { nodeTitle } from '../node-title.ts';
import { compareNodes } from '../walk.ts';

/** One numbered line of the outline: the node it stands for and the text sent. */
export interface OutlineEntry {
  number: number;
  nodeId: string;
  line: string;
}

export interface CanvasOutline {
  entries: OutlineEntry[];
  /** Node id → its number in this outline. */
  numberOf: ReadonlyMap<string, number>;
  /** The outline message as sent: a header line, then one line per entry. */
  text: string;
}

/** Every node the outline numbers: live and not a frame (frames are layout, never context). */
export function outlineNodes(graph: Graph): CanvasNode[] {
  const nodes: CanvasNode[] = [];
  for (const node of graph.nodes.values()) if (isLive(node) && node.kind !== 'frame') nodes.push(node);
  return nodes.sort(compareNodes);
}

function statusOf(node: CanvasNode, stale: ReadonlySet<string>): string {
  switch (node.kind) {
    case 'question': {
      const current = node.versions.find((version) => version.id === node.currentVersionId);
      if (!current) return 'question [unanswered]';
      if (current.status !== 'complete') return `question [${current.status === 'aborted' ? 'stopped' : 'failed'}]`;
      // The same shown stale set as the badge, the preview and every request path (C7).
      return stale.has(node.id) ? 'question [stale]' : 'question [answered]';
    }
    case 'mirror':
      return `mirror [${node.source.runner} turn ${node.source.turnNumber}]`;
    default:
      return node.kind;
  }
}

/**
 * C17: the canvas as numbered lines — number, kind and status (with the stale mark), title, and the numbers of
 * its live parents (solid) and references (dashed). Numbers follow creation time, then id, so they are stable for a
 * given canvas state and independent of map order. Archived nodes and frames are left out, and so are wires from them.
 */
export function canvasOutline(graph: Graph, stale: ReadonlySet<string>, focusId: string | null = null): CanvasOutline {
  const nodes = outlineNodes(graph);
  const numberOf = new Map<string, number>();
  nodes.forEach((node, index) => numberOf.set(node.id, index + 1));
  const entries = nodes.map((node, index): OutlineEntry => {
    const parents: number[] = [];
    const references: number[] = [];
    for (const wireId of graph.incoming.get(node.id) ?? []) {
      const wire = graph.wires.get(wireId);
      const from = wire && numberOf.get(wire.from);
      if (!wire || from === undefined) continue;
      (wire.kind === 'solid' ? parents : references).push(from);
    }
    const links = [
      parents.length ? `parents ${numbers(parents)}` : '',
      references.length ? `references ${numbers(references)}` : '',
    ].filter(Boolean);
    const focus = node.id === focusId ? ' (focused)' : '';
    const line = `#${index + 1} ${statusOf(node, stale)}${focus}: ${nodeTitle(node)}${links.length ? ` ← ${links.join('; ')}` : ''}`;
    return { number: index + 1, nodeId: node.id, line };
  });
  const header =
    entries.length === 0
      ? '[Canvas outline: the canvas has no live nodes]'
      : `[Canvas outline: ${entries.length} live ${entries.length === 1 ? 'node' : 'nodes'}, numbered #1…#${entries.length}]`;
  return { entries, numberOf, text: [header, ...entries.map((entry) => entry.line)].join('\n') };
}

function numbers(list: number[]): string {
  return [...new Set(list)]
    .sort((left, right) => left - right)
    .map((number) => `#${number}`)
    .join(', ');
}
