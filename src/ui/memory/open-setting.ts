import type { WeftStore } from '../store/index.ts';

/**
 * One click from an action that cannot run to the setting it needs: Settings opens, scrolled to the control
 * (`data-testid`), which takes the focus so the person can change it at once.
 */
export function openSetting(store: WeftStore, control: string): void {
  store.getState().setView('settings');
  let frames = 0;
  // Settings renders on the next frames; give up quietly after about a second (the page is open either way).
  const find = () => {
    const element = document.querySelector<HTMLElement>(`[data-testid="${control}"]`);
    if (element) {
      element.scrollIntoView({ block: 'center' });
      element.focus();
    } else if ((frames += 1) < 60) requestAnimationFrame(find);
  };
  requestAnimationFrame(find);
}
