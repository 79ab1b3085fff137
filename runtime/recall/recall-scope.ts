import { WeftError, type RecallPlanRequest } from '../../protocol/index.ts';
import type { CanvasStore } from '../fs/index.ts';

/**
 * Recall reads only the scope the stored canvas and node allow: the canvas's working directory and the node's
 * "every project" switch as the server recorded them, never as a request body says (issue 27.3). A body that
 * names another folder, or switches `global` on for a node whose stored setting does not, is refused with 409
 * `recall-scope-unsaved` (the app saves the canvas and asks again); a narrower body (global off) is honoured.
 * #29: the same for the node's memory reading: a body may read inferred dossiers only when the saved node does, and
 * may date its read "as of" only the date the saved node holds (the date its fingerprint covers).
 */
export async function checkRecallScope(
  canvases: Pick<CanvasStore, 'read'>,
  request: Pick<RecallPlanRequest, 'canvasId' | 'nodeId' | 'workingDirectory' | 'setting' | 'memoryReading'>,
): Promise<void> {
  const stored = await canvases.read(request.canvasId).catch(() => null);
  const workingDirectory = stored?.document.canvas.workingDirectory ?? null;
  const node = request.nodeId ? stored?.document.nodes.find((candidate) => candidate.id === request.nodeId) : undefined;
  const storedGlobal = node?.kind === 'question' && node.recall?.global === true;
  const storedInferred = node?.kind === 'question' && node.memoryReading?.includeInferred === true;
  const storedAsOf = node?.kind === 'question' ? (node.memoryReading?.asOf ?? null) : null;
  if (request.workingDirectory !== workingDirectory)
    throw new WeftError(
      'recall-scope-unsaved',
      "Recall reads the canvas's working directory as it is saved, and the saved one differs from this request's.",
      409,
    );
  if (request.setting.global && !storedGlobal)
    throw new WeftError(
      'recall-scope-unsaved',
      'Recall reaches every project only for a question whose saved recall setting says so.',
      409,
    );
  if (request.memoryReading?.includeInferred && !storedInferred)
    throw new WeftError(
      'recall-scope-unsaved',
      'Recall reads inferred items only for a question whose saved memory reading says so.',
      409,
    );
  if ((request.memoryReading?.asOf ?? null) !== storedAsOf)
    throw new WeftError(
      'recall-scope-unsaved',
      'Recall reads memory "as of" the date the saved question holds, and this request names another.',
      409,
    );
}
