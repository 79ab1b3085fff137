import { useEffect, type RefObject } from 'react';

/**
 * A press (mouse, pen or touch) anywhere outside `inside` calls `onOutside`: how a popup menu closes when
 * the person turns to something else. Pointer-down, so a drag on the canvas closes it too.
 */
export function useOutsidePress(active: boolean, inside: RefObject<HTMLElement | null>, onOutside: () => void): void {
  useEffect(() => {
    if (!active) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && inside.current?.contains(event.target)) return;
      onOutside();
    };
    window.addEventListener('pointerdown', onPointerDown, true);
    return () => window.removeEventListener('pointerdown', onPointerDown, true);
  }, [active, inside, onOutside]);
}
