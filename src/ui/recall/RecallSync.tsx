import { useEffect } from 'react';
import type { StreamEvent } from '../../../protocol/index.ts';
import { serverEvents } from '../api/index.ts';
import { recallClient } from '../store/index.ts';

/** What recall reads: canvases (this one's other turns too), sessions and mirrors, memory (put-asides, dossiers). */
const CHANGES_RECALL: ReadonlySet<StreamEvent['type']> = new Set([
  'canvas-changed',
  'canvas-deleted',
  'session-grew',
  'mirror-appended',
  'memory-changed',
]);

/**
 * Follows the page's one server stream and drops the recall plans shown when what they read changed, so an open
 * preview is planned again and its hash stays the one the ask will send.
 */
export function RecallSync() {
  useEffect(
    () =>
      serverEvents.subscribe((event) => {
        if (CHANGES_RECALL.has(event.type)) recallClient.invalidate();
      }),
    [],
  );
  return null;
}
