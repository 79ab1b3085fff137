const WIDTH = 28;
const REDRAW_MS = 100;

/** A one-line progress bar on stderr, drawn only when stderr is a terminal (like the CLI's). */
export function progressLine(label: string): { update: (done: number, total: number) => void; done: () => void } {
  if (!process.stderr.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (now - last < REDRAW_MS && done < total) return;
      last = now;
      const fraction = total > 0 ? done / total : 1;
      const filled = Math.round(fraction * WIDTH);
      process.stderr.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%  ${done}/${total} requests  ${label}`,
      );
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write('\r\u001b[2K');
    },
  };
}
