import { useEffect } from 'react';
import { serverEvents } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

/** Follows `canvas-changed` and `canvas-deleted` on the page's one server stream, so edits from another tab or tool show here. */
export function CanvasSync() {
  const store = useWeftStore();
  useEffect(
    () =>
      serverEvents.subscribe((event) => {
        if (event.type === 'canvas-changed') void store.getState().canvasChangedElsewhere(event.id, event.revision);
        else if (event.type === 'canvas-deleted') void store.getState().canvasDeletedElsewhere(event.id);
      }),
    [store],
  );
  return null;
}
