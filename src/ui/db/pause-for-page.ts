/** Gives the page a turn between slices of long work (idle time where the browser has it, else the next task). */
export function pauseForPage(): Promise<void> {
  return new Promise((resolve) => {
    const idle = (globalThis as { requestIdleCallback?: (callback: () => void, options: object) => void })
      .requestIdleCallback;
    if (idle) idle(() => resolve(), { timeout: 200 });
    else setTimeout(resolve, 0);
  });
}
