import { useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useStore } from 'zustand';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { memoryClient } from '../store/index.ts';

/** Items asked for at a time. */
const PAGE = 100;
/** The next page is asked for once the last row shown is this close to the end of what is loaded. */
const AHEAD = 10;

/** What a paged list route answers: its items come with the cursor of the next page and the total. */
export interface PagedResponse {
  nextCursor: string | null;
  total: number;
}

export interface PagedListOptions<Item, Page extends PagedResponse> {
  list: (query: { cursor: string | null; limit: number }) => Promise<Page>;
  itemsOf: (page: Page) => Item[];
  /** A row's height before it is measured, in pixels. */
  estimateSize: number;
  /** Told of every page read (`first`: the list starts again from it), for what a page carries beside its items. */
  onPage?: (page: Page, first: boolean) => void;
}

/**
 * One list of the memory page read from the server in pages, newest first, and windowed (the Journal's
 * virtualiser): the first page on mount and again on every `memory-changed`; the next page (by the cursor the
 * server gave, never by position) once the person scrolls near the end of what is loaded. `remove` takes an item
 * the person decided on out at once, before the reread `memory-changed` brings. Failures are toasts.
 */
export function usePagedList<Item extends { id: string }, Page extends PagedResponse>(
  options: PagedListOptions<Item, Page>,
) {
  const store = useWeftStore();
  const memoryRead = useStore(memoryClient.view, (view) => view.loaded);
  const [page, setPage] = useState<Page | null>(null);
  const [items, setItems] = useState<Item[]>([]);
  const loading = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);
  // The options of the latest render: the effects below run on list events, not on every new callback.
  const latest = useRef(options);
  latest.current = options;

  const fail = (caught: unknown) => {
    const { code, message } = describeError(caught);
    store.getState().toast('error', code, message);
  };
  useEffect(() => {
    let current = true;
    latest.current.list({ cursor: null, limit: PAGE }).then((first) => {
      if (!current) return;
      setPage(first);
      setItems(latest.current.itemsOf(first));
      latest.current.onPage?.(first, true);
    }, fail);
    return () => {
      current = false;
    };
  }, [memoryRead]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => options.estimateSize,
    overscan: 6,
  });
  const lastShown = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  const next = page?.nextCursor ?? null;
  useEffect(() => {
    if (next === null || loading.current || lastShown < items.length - AHEAD) return;
    loading.current = true;
    latest.current
      .list({ cursor: next, limit: PAGE })
      .then((more) => {
        setPage(more);
        setItems((shown) => [...shown, ...latest.current.itemsOf(more)]);
        latest.current.onPage?.(more, false);
      }, fail)
      .finally(() => (loading.current = false));
  }, [lastShown, next, items.length]);

  const remove = (id: string) => {
    setItems((shown) => shown.filter((item) => item.id !== id));
    setPage((listed) => listed && { ...listed, total: Math.max(0, listed.total - 1) });
  };
  return { page, items, scroller, virtualizer, remove, fail };
}
