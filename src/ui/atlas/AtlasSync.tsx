import { useEffect } from 'react';
import { serverEvents } from '../api/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { atlasApi } from './atlas-api.ts';
import { syncFollowed } from './mirror-actions.ts';

/**
 * Live follow in the page: listens to `/api/stream` for `session-grew` and re-plans the followed session's
 * mirror from its ledger; when a canvas opens, its followed sessions catch up and the server is reminded to watch them.
 */
export function AtlasSync() {
  const store = useWeftStore();
  const canvasId = useWeft((state) => state.activeCanvasId);

  // One shared `/api/stream` connection per page (browsers allow only a few per host).
  useEffect(
    () =>
      serverEvents.subscribe((event) => {
        if (event.type !== 'session-grew') return;
        const ledger = store
          .getState()
          .graph?.ledgers.find((item) => item.sessionId === event.sessionId && item.runner === event.runner);
        if (ledger?.following) void syncFollowed(store, { runner: ledger.runner, sessionId: ledger.sessionId });
      }),
    [store],
  );

  useEffect(() => {
    if (!canvasId) return;
    const following = store.getState().graph?.ledgers.filter((ledger) => ledger.following) ?? [];
    if (following.length === 0) return;
    void (async () => {
      const known = await atlasApi.follows().catch(() => ({ follows: [] }));
      for (const ledger of following) {
        const target = { runner: ledger.runner, sessionId: ledger.sessionId };
        if (!known.follows.some((follow) => follow.runner === target.runner && follow.sessionId === target.sessionId)) {
          await atlasApi.setFollowing(target.runner, target.sessionId, true).catch(() => undefined);
        }
        await syncFollowed(store, target);
      }
    })();
  }, [canvasId, store]);

  return null;
}
