import { PlaqueSchema, type Plaque } from '../../../protocol/index.ts';
import type { GraphChange } from '../changes.ts';
import { GraphError } from '../graph-error.ts';
import { findNode, recordEvent, storeNode, type ChangeScope } from '../working-graph.ts';

/** C32: write, edit or clear (null) the plaque of one version. */
export type SetPlaqueChange = Extract<GraphChange, { type: 'set-plaque' }>;

/**
 * Stores a version's plaque. A plaque is display only: the change touches no node (nothing turns stale, no
 * fingerprint moves) and leaves the answer text alone; it writes one `plaque` event. Whoever wrote it, the topic
 * must sit inside the takeaway and the abstract must quote the answer verbatim.
 */
export function applyPlaqueChange(scope: ChangeScope, change: SetPlaqueChange): GraphError | null {
  const node = findNode(scope.working, change.nodeId);
  if (node instanceof GraphError) return node;
  if (node.kind !== 'question')
    return new GraphError('invalid', `A ${node.kind} node has no versions to summarise.`, { nodeId: node.id });
  const index = node.versions.findIndex((version) => version.id === change.versionId);
  const version = node.versions[index];
  if (!version)
    return new GraphError('not-found', `Node ${node.id} has no version ${change.versionId}.`, { nodeId: node.id });
  let plaque: Plaque | undefined;
  if (change.plaque) {
    const checked = PlaqueSchema.safeParse(change.plaque);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      return new GraphError('invalid', `Plaque: ${issue.path.join('.')}: ${issue.message}`, { nodeId: node.id });
    }
    plaque = checked.data;
    if (!plaque.takeaway.toLowerCase().includes(plaque.topic.toLowerCase()))
      return new GraphError('invalid', `The topic “${plaque.topic}” must be words of the takeaway.`, {
        nodeId: node.id,
      });
    if (plaque.abstract.some((sentence) => !version.text.includes(sentence)))
      return new GraphError('invalid', 'The abstract must quote sentences of the answer verbatim.', {
        nodeId: node.id,
      });
  }
  const { plaque: _previous, ...rest } = version;
  const versions = [...node.versions];
  versions[index] = plaque ? { ...rest, plaque } : rest;
  const failed = storeNode(scope, { ...node, versions });
  if (failed) return failed;
  // Deliberately not `touched`: a plaque never enters context, so no staleness is recomputed for it.
  recordEvent(scope.working, 'plaque', node.id, {
    versionId: version.id,
    source: plaque?.source ?? 'cleared',
    model: plaque?.model ?? null,
    refusal: plaque?.refusal ?? null,
  });
  return null;
}
