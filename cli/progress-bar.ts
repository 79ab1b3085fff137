import type { IndexProgress } from '../runtime/index/index.ts';
import type { Terminal } from './terminal.ts';

const WIDTH = 28;
const REDRAW_MS = 100;

/**
 * A one-line progress bar on stderr, drawn only on a terminal; elsewhere nothing at all.
 * Returns the callback for the index update and a `done` that clears the line.
 */
export function progressBar(io: Terminal): { onProgress?: (progress: IndexProgress) => void; done: () => void } {
  if (!io.errIsTTY) return { done: () => undefined };
  let last = 0;
  let drawn = false;
  return {
    onProgress(progress) {
      const now = performance.now();
      if (now - last < REDRAW_MS && progress.filesDone < progress.filesTotal) return;
      last = now;
      const fraction =
        progress.bytesTotal > 0
          ? progress.bytesDone / progress.bytesTotal
          : progress.filesDone / Math.max(1, progress.filesTotal);
      const filled = Math.round(fraction * WIDTH);
      const bar = '#'.repeat(filled) + '-'.repeat(WIDTH - filled);
      io.err(
        `\r[${bar}] ${String(Math.round(fraction * 100)).padStart(3)}%  ${progress.filesDone}/${progress.filesTotal} files  ${megabytes(progress.bytesDone)} MB`,
      );
      drawn = true;
    },
    done() {
      if (drawn) io.err('\r\u001b[2K');
    },
  };
}

export function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}
