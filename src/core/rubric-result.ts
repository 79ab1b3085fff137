import { CheckOutcomeSchema, RubricNoteSchema, type RubricNote } from '../../protocol/index.ts';
import type { GraphChange } from './changes.ts';
import { GraphError } from './graph-error.ts';
import { CHECK_EVENT_OP } from './version-checks.ts';
import { findNode, recordEvent, storeNode, type ChangeScope } from './working-graph.ts';

export type RecordRubricChange = Extract<GraphChange, { type: 'record-rubric' }>;

const REASON_MAX = 500;

/**
 * Issue 31 / C10: stores a rubric's verdict on one version. The judge's reason is model-written text, so it is kept
 * with the version (`rubricNotes`, one per check, the latest judgement wins) and the `check` event carries metadata
 * only: the verdict, the judge and the hash of its request, which names the note. Display only: the change touches
 * no node (no fingerprint moves, nothing turns stale) and leaves the answer and its request alone.
 */
export function applyRubricResult(scope: ChangeScope, change: RecordRubricChange): GraphError | null {
  const node = findNode(scope.working, change.nodeId);
  if (node instanceof GraphError) return node;
  if (node.kind !== 'question')
    return new GraphError('invalid', `A ${node.kind} node has no answers to check.`, { nodeId: node.id });
  const index = node.versions.findIndex((version) => version.id === change.versionId);
  const version = node.versions[index];
  if (!version)
    return new GraphError('not-found', `Node ${node.id} has no version ${change.versionId}.`, { nodeId: node.id });
  if (!(node.checks ?? []).some((check) => check.id === change.checkId && check.kind === 'rubric'))
    return new GraphError('not-found', `Node ${node.id} has no rubric check ${change.checkId}.`, { nodeId: node.id });
  if (!CheckOutcomeSchema.safeParse(change.outcome).success)
    return new GraphError('invalid', `A check's outcome is pass, fail or error.`, { nodeId: node.id });
  const note: RubricNote = {
    checkId: change.checkId,
    rubric: String(change.rubric),
    reason: String(change.reason).slice(0, REASON_MAX),
    requestHash: change.judged?.requestHash ?? null,
  };
  if (!RubricNoteSchema.safeParse(note).success)
    return new GraphError('invalid', 'A rubric verdict names the rubric it judged.', { nodeId: node.id });
  const versions = [...node.versions];
  versions[index] = {
    ...version,
    rubricNotes: [...(version.rubricNotes ?? []).filter((each) => each.checkId !== change.checkId), note],
  };
  const failed = storeNode(scope, { ...node, versions });
  if (failed) return failed;
  // Deliberately not `touched`: a check result never enters context or a fingerprint.
  recordEvent(scope.working, CHECK_EVENT_OP, version.id, {
    nodeId: node.id,
    checkId: change.checkId,
    kind: 'rubric',
    outcome: change.outcome,
    ...(change.judged ? { judgeModel: change.judged.model, requestHash: change.judged.requestHash } : {}),
  });
  return null;
}
