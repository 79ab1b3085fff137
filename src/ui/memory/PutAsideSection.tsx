import type { PutAsideItem, PutAsideListResponse } from '../../../protocol/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';
import { openOrigin } from './open-origin.ts';
import { putAsidesApi } from './put-asides-api.ts';
import { usePagedList } from './use-paged-list.ts';
import { formatWhen } from '../../core/index.ts';

const KINDS: Record<PutAsideItem['kind'], string> = {
  'canvas-turn': 'canvas turn',
  'session-turn': 'session turn',
  'imported-message': 'imported message',
  'dossier-sentence': 'dossier sentence',
};

const REASONS: Record<string, string> = {
  archived: 'archived',
  deleted: 'deleted',
  struck: 'struck',
  rejected: 'rejected',
};

/**
 * "Put aside" on the memory page (issue 29.2): every tombstone in force, newest first and windowed (the Inbox's
 * virtualiser) — the words while a record still holds them, where they came from, why and when — with Restore,
 * which lifts the tombstone (journaled) so the words may come back on every read path.
 */
export function PutAsideSection() {
  const store = useWeftStore();
  // Every `memory-changed` (an archive, a strike, a restore here or from `weft memory restore`) rereads the list.
  const {
    page: listed,
    items,
    scroller,
    virtualizer,
    remove,
    fail,
  } = usePagedList<PutAsideItem, PutAsideListResponse>({
    list: (query) => putAsidesApi.list(query),
    itemsOf: (page) => page.items,
    estimateSize: 64,
  });

  async function restore(id: string) {
    try {
      await putAsidesApi.restore(id);
      // Restored on the server: gone from the list now, before the reread that `memory-changed` brings.
      remove(id);
    } catch (caught) {
      fail(caught);
    }
    await memoryClient.refresh();
  }

  return (
    <section className="card-panel memory-put-asides" data-testid="memory-put-asides">
      <h2>
        Put aside{' '}
        <span className="hint" data-testid="memory-put-asides-count">
          {listed?.total ?? 0}
        </span>
      </h2>
      <p className="hint">
        Words you archived, deleted or struck. No read path — recall, dossiers, the why index, the CLI or MCP — brings
        them back, whether asked, imported or mirrored again, until you restore them.
      </p>
      <div className="memory-inbox-scroll" ref={scroller} data-testid="memory-put-asides-scroll">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index]!;
            const origin = item.origin;
            return (
              <div
                key={item.id}
                ref={virtualizer.measureElement}
                data-index={row.index}
                className="memory-proposal"
                data-testid="memory-put-aside"
                data-put-aside-id={item.id}
                data-kind={item.kind}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
              >
                <span className="memory-proposal-text" data-testid="memory-put-aside-text">
                  {item.excerpt === null ? <em>its words are no longer stored</em> : `“${item.excerpt}”`}
                </span>
                <span className="hint">
                  {KINDS[item.kind]} · {REASONS[item.reason] ?? item.reason} · {formatWhen(item.at)}
                </span>
                <span className="button-row">
                  {origin && 'nodeId' in origin && (
                    <button
                      className="link"
                      onClick={() => void openOrigin(store, origin.canvasId, origin.nodeId).catch(fail)}
                    >
                      open turn
                    </button>
                  )}
                  <button
                    className="button small ghost"
                    data-testid="memory-put-aside-restore"
                    onClick={() => void restore(item.id)}
                  >
                    Restore
                  </button>
                </span>
              </div>
            );
          })}
        </div>
      </div>
      {listed && items.length === 0 && <p className="hint">Nothing is put aside.</p>}
    </section>
  );
}
