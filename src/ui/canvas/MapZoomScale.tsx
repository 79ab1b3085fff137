import { useEffect } from 'react';
import { useStoreApi } from '@xyflow/react';

/**
 * Keeps `--weft-zoom` on the canvas element equal to the current zoom, so map-mode plaques (C32) size their text
 * in screen pixels (`calc(14px / var(--weft-zoom))`) and stay legible however far out the canvas is. Written from a
 * store subscription, not state: zooming re-renders no card.
 */
export function MapZoomScale() {
  const store = useStoreApi();
  useEffect(() => {
    let last = Number.NaN;
    const write = () => {
      const zoom = store.getState().transform[2];
      const element = store.getState().domNode;
      if (!element || zoom === last) return;
      last = zoom;
      element.style.setProperty('--weft-zoom', String(zoom));
    };
    write();
    return store.subscribe(write);
  }, [store]);
  return null;
}
