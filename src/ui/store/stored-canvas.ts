import { documentFromGraph, graphFromDocument, type Graph } from '../../core/index.ts';
import { loadCanvasDocument, writeCanvasChanges } from '../db/canvas-persistence.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { recordsFromGraph } from './store-runtime.ts';

/**
 * Changes a canvas that is not the open one (an answer that finished after its canvas was left):
 * read it from IndexedDB (or its durable record), let `update` derive the next graph, write only the
 * rows that changed, then the durable record. Returns the new graph, or null when nothing was written.
 */
export async function updateStoredCanvas(
  dependencies: Pick<AppDependencies, 'database' | 'api' | 'now'>,
  canvasId: string,
  update: (graph: Graph) => Graph | null,
): Promise<Graph | null> {
  const local = await loadCanvasDocument(dependencies.database, canvasId);
  const before = graphFromDocument(local ?? (await dependencies.api.getCanvas(canvasId)));
  const after = update(before);
  if (!after || after === before) return null;
  // Rows read from IndexedDB are already there: write the diff; a canvas fetched from the server is written whole.
  await writeCanvasChanges(
    dependencies.database,
    local ? recordsFromGraph(before) : null,
    recordsFromGraph(after),
    dependencies.now(),
  );
  await dependencies.api.putCanvas(documentFromGraph(after));
  return after;
}
