import { appendEvent, type EventDraft, type Graph } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import type { MemoryClient } from './memory-client.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishGraph } from './graph-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { updateStoredCanvas } from './stored-canvas.ts';
import type { GetState, SetState } from './weft-state.ts';

/** The command the admission toast's Undo button runs (registered by the memory page). */
export const MEMORY_UNDO_COMMAND = 'memory-undo';

function withEvents(graph: Graph, drafts: readonly EventDraft[], dependencies: AppDependencies): Graph {
  let events = graph.events;
  for (const draft of drafts)
    events = [...events, appendEvent(events, draft, { now: dependencies.now(), newId: dependencies.newId })];
  return { ...graph, events };
}

/**
 * After an ordinary ask (chat lane) has its version: the memory judge, fire-and-forget — the answer is already on
 * screen. The server reads the exchange from the stored canvas (C14: the page never says which text is the
 * person's), so the canvas is saved first: without that, a debounced save would leave the version unknown there.
 * Its decisions land in the canvas's event log (metadata only); an admission shows a toast with Undo for
 * eight seconds; a failure says so instead of passing silently.
 */
export async function judgeAfterAsk(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies & { memory: MemoryClient },
  runtime: StoreRuntime,
  ask: { canvasId: string; nodeId: string; versionId: string; commitHash: string },
): Promise<void> {
  const canvasId = ask.canvasId;
  // A canvas left during the ask was saved by the runner already; the open one may still wait on its debounce.
  if (get().graph?.canvas.id === canvasId) {
    try {
      await get().flush();
    } catch (error) {
      get().toast(
        'error',
        'memory-judge-failed',
        `Memory could not judge this exchange: ${describeError(error).message}`,
      );
      return;
    }
  }
  const judged = await dependencies.memory.judge(ask);
  if (!judged.ok) {
    get().toast('error', 'memory-judge-failed', `Memory could not judge this exchange: ${judged.message}`);
    return;
  }
  const { events, activity, undo } = judged.value;
  if (events.length > 0) {
    const open = get().graph;
    try {
      if (open?.canvas.id === canvasId)
        publishGraph(set, get, runtime, withEvents(open, events, dependencies), [], 'keep');
      else if (!runtime.deletedCanvasIds.has(canvasId))
        await updateStoredCanvas(dependencies, canvasId, (stored) => withEvents(stored, events, dependencies));
    } catch (error) {
      get().toast(
        'error',
        describeError(error).code,
        `Memory's events could not be saved: ${describeError(error).message}`,
      );
    }
  }
  const proposed = activity.filter((entry) => entry.kind === 'proposed' && entry.reason === null);
  if (proposed.length > 0)
    get().toast(
      'info',
      'memory-proposed',
      proposed.length === 1
        ? `Proposed for your memory: “${(proposed[0]!.text ?? '').slice(0, 80)}” — waiting in the Inbox on the Memory page.`
        : `${proposed.length} facts about you wait in the Inbox on the Memory page.`,
    );
  if (undo) {
    const admitted = activity.filter((entry) => entry.kind === 'admitted' && entry.lineId !== null);
    const first = admitted[0]?.text ?? '';
    const message =
      admitted.length === 1 ? `Remembered: “${first.slice(0, 80)}”` : `Remembered ${admitted.length} facts about you.`;
    // The button names its own admission: an older toast never undoes a newer one.
    get().toast('info', 'memory-admitted', message, { label: 'Undo', command: MEMORY_UNDO_COMMAND, argument: undo.id });
  }
}
