import { useEffect } from 'react';

/**
 * Escape closes the open dialog. Caught first (capture) and stopped, so it does not also run the
 * canvas's Escape command (Stop) underneath the dialog.
 */
export function useEscape(active: boolean, onEscape: () => void): void {
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      event.preventDefault();
      onEscape();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [active, onEscape]);
}
