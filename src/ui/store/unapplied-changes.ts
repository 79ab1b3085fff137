import type { Graph, LocalStep, RebaseOutcome } from '../../core/index.ts';
import { nodeTitle } from './node-labels.ts';

/**
 * What a replay of this page's pending steps onto a newer record kept and what it could not apply (its node was
 * deleted elsewhere): listed for the person until they dismiss it, never dropped silently.
 */
export interface UnappliedChanges {
  canvasId: string;
  canvasName: string;
  /** Steps now in the canvas (replayed, or found already saved). */
  kept: number;
  notApplied: { what: string; reason: string }[];
}

const CHANGE_WORDS: Record<string, string> = {
  'add-node': 'A new card',
  'edit-node': 'An edit',
  'delete-node': 'A deletion',
  'move-node': 'A move',
  'add-version': 'An answer',
  'select-version': 'A choice of answer',
  wire: 'A wire',
  unwire: 'A removed wire',
  'set-wire-kind': 'A wire change',
  archive: 'An archive',
  unarchive: 'A restore from the archive',
  'rename-canvas': 'A rename of the canvas',
  batch: 'A group of changes',
};

/** A step in words, naming the card it touched as `before` (the page's copy) knew it. */
export function describeStep(step: LocalStep, before: Graph | null): string {
  if (step.kind === 'snapshot') return 'An undo or redo';
  const change = step.change;
  const words = CHANGE_WORDS[change.type] ?? `A change (${change.type})`;
  const nodeId = 'nodeId' in change ? change.nodeId : undefined;
  const node = nodeId ? before?.nodes.get(nodeId) : undefined;
  return node ? `${words} of “${nodeTitle(node)}”` : words;
}

/** The list to show after a replay, or null when every step was kept. */
export function unappliedAfter(
  canvas: { id: string; name: string },
  steps: readonly LocalStep[],
  outcome: RebaseOutcome,
  before: Graph | null,
): UnappliedChanges | null {
  if (outcome.dropped.length === 0) return null;
  return {
    canvasId: canvas.id,
    canvasName: canvas.name,
    kept: steps.length - outcome.dropped.length,
    notApplied: outcome.dropped.map(({ step, reason }) => ({ what: describeStep(step, before), reason })),
  };
}
