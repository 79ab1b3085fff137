import { fillCanvasRows, pauseForPage, recordsFromDocument } from '../db/index.ts';
import { WeftError } from '../../../protocol/index.ts';
import type { AppDependencies } from './app-dependencies.ts';

/** Why a cache fill stopped part-way: the canvas was opened or deleted meanwhile. */
class FillAbandoned extends WeftError {
  constructor() {
    super('fill-abandoned', 'The canvas was opened or deleted while it was being cached.', null);
    this.name = 'FillAbandoned';
  }
}

/**
 * A canvas this page holds no copy of, made or changed elsewhere (an import, another tab): read as it is painted
 * (`checkLater`), checked and cached in slices with the page given turns, like a canvas opened from the server,
 * instead of in one transaction that holds every other IndexedDB read and write (opening it included) until it
 * ends. Stops when `abandoned` turns true (the canvas was opened, whose own fill caches it, or deleted); the
 * canvas row comes last, so a fill that stopped is never read as the canvas. True when it was cached.
 */
export async function cacheArrivedCanvas(
  dependencies: Pick<AppDependencies, 'api' | 'database' | 'now'>,
  id: string,
  abandoned: () => boolean,
  pause: () => Promise<void> = pauseForPage,
): Promise<boolean> {
  const remote = await dependencies.api.readCanvas(id, { checkLater: true });
  if (abandoned()) return false;
  await remote.check?.();
  try {
    await fillCanvasRows(dependencies.database, recordsFromDocument(remote.document), {
      now: dependencies.now(),
      revision: remote.revision,
      pause: async () => {
        await pause();
        if (abandoned()) throw new FillAbandoned();
      },
    });
    return true;
  } catch (error) {
    if (error instanceof FillAbandoned) return false;
    throw error;
  }
}
