import { useEffect, useRef } from 'react';

/**
 * Focuses the field when a node with nothing in it opens (a node just created), so typing goes into it
 * instead of firing the canvas's one-letter shortcuts.
 */
export function useFocusWhenEmpty<T extends HTMLElement>(nodeId: string, empty: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (empty) ref.current?.focus();
    // Only when another node opens: focusing on every keystroke that empties the field would steal focus.
  }, [nodeId]);
  return ref;
}
