import type { QuestionNode, DecideRequest } from '../../protocol/index.ts';
import type { Graph } from './graph.ts';
import { diffUpstreamParts, upstreamParts } from './fingerprint.ts';
import { recordedUpstreamParts } from './recorded-upstream.ts';
import { sliceWhole } from './well-formed.ts';

/** `default` = the change bears on the answer (the rule fallback keeps the mark); `unrelated` = it does not. */
export const STALE_OPTIONS = ['default', 'unrelated'] as const;

const clip = (text: string, length: number) => (text.length > length ? sliceWhole(text, length - 1) + '…' : text);

/**
 * C7: what the stale judge reads about one answer — the question, the answer's opening and each upstream part
 * before and after. Null when the answer has no current version, nothing upstream changed, or the person edited
 * the node's own question since (that answer is stale whatever a judge would say, so the judge is not asked), and
 * for the first-run canvas's pre-written answers (`origin: 'demo'`): their stale mark is the lesson, and a judge
 * paid to rule on a teaching example the person never asked would be a call nobody wanted.
 */
export function staleDecision(graph: Graph, node: QuestionNode): DecideRequest | null {
  const version = node.versions.find((candidate) => candidate.id === node.currentVersionId);
  if (!version || version.question !== node.question || version.origin === 'demo') return null;
  const diff = diffUpstreamParts(recordedUpstreamParts(graph, version).parts, upstreamParts(graph, node.id));
  const lines = [
    ...diff.changed.map(
      (entry) => `Changed upstream part:\n  before: ${entry.before.opening}\n  after:  ${entry.after.opening}`,
    ),
    ...diff.added.map((part) => `Added upstream part: ${part.opening}`),
    ...diff.removed.map((part) => `Removed upstream part: ${part.opening}`),
  ];
  if (lines.length === 0) return null;
  return {
    kind: 'stale',
    prompt: `An answer was written against an earlier version of its upstream context. Does the change bear on the answer?\n\nQuestion: ${clip(version.question, 500)}\nAnswer (opening): ${clip(version.text, 600)}\n\n${lines.join('\n')}\n\nOptions: "default" = the change bears on the answer (keep the stale mark); "unrelated" = it does not.`,
    options: [...STALE_OPTIONS],
  };
}
