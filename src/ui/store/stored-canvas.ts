import { documentFromGraph, graphFromDocument, type Graph } from '../../core/index.ts';
import { loadCanvasDocument, writeCanvasChanges, recordsFromDocument } from '../db/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { isRevisionConflict } from './durable-save.ts';
import { recordsFromGraph } from './store-runtime.ts';

const ROUNDS = 5;

/**
 * Changes a canvas that is not the open one (an answer that finished after its canvas was left): read its durable
 * record, let `update` derive the next graph, save it based on that record's revision — on a 409 (someone saved
 * in between) read it again and redo `update` — then make this browser's rows match. Returns the new graph, or null
 * when nothing was written.
 */
export async function updateStoredCanvas(
  dependencies: Pick<AppDependencies, 'database' | 'api' | 'now'>,
  canvasId: string,
  update: (graph: Graph) => Graph | null,
): Promise<Graph | null> {
  for (let round = 0; ; round += 1) {
    const remote = await dependencies.api.readCanvas(canvasId);
    const before = graphFromDocument(remote.document);
    const after = update(before);
    if (!after || after === before) return null;
    let saved: { revision: string };
    try {
      saved = await dependencies.api.putCanvas(documentFromGraph(after), { baseRevision: remote.revision });
    } catch (error) {
      if (isRevisionConflict(error) && round < ROUNDS) continue;
      throw error;
    }
    // Rows this browser holds that the record does not (events included) go; the rest are rewritten: the rows are
    // then exactly the saved record.
    const local = await loadCanvasDocument(dependencies.database, canvasId);
    await writeCanvasChanges(
      dependencies.database,
      local ? recordsFromDocument(local) : null,
      recordsFromGraph(after),
      dependencies.now(),
      saved.revision,
    );
    return after;
  }
}
