import { elementScroll, type Rect, type Virtualizer } from '@tanstack/react-virtual';

/** Scroll boxes the virtualiser has written to (the first write to a new one is skipped when it is the top). */
const written = new WeakSet<Element>();

/**
 * Virtualiser options that read no layout while React commits (each read there forced a layout of the new panel on
 * open: ≈ 10 ms at 1,000 upstream nodes). The scroll box starts at its CSS size (`max-height: 60vh`; a windowed list
 * always fills it) and rows at their estimates; the ResizeObservers, which run after the frame's own layout and
 * before its paint, give the real sizes, and the virtualiser writes the rows' positions straight into the DOM then,
 * so the first painted frame already has them.
 */
export const WITHOUT_FORCED_LAYOUT = {
  directDomUpdates: true,
  // A new scroll box is at the top already: the virtualiser's first write there (to 0) would only force a layout.
  scrollToFn: (
    offset: number,
    options: { adjustments?: number; behavior?: ScrollBehavior },
    instance: Virtualizer<HTMLDivElement, Element>,
  ) => {
    const element = instance.scrollElement;
    if (element && !written.has(element)) {
      written.add(element);
      if (offset + (options.adjustments ?? 0) === 0) return;
    }
    elementScroll(offset, options, instance);
  },
  observeElementRect: (instance: Virtualizer<HTMLDivElement, Element>, changed: (rect: Rect) => void) => {
    const element = instance.scrollElement;
    if (!element) return;
    const observer = new ResizeObserver(() => changed({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  },
  measureElement: (
    element: Element,
    entry: ResizeObserverEntry | undefined,
    instance: Virtualizer<HTMLDivElement, Element>,
  ) => {
    const box = entry?.borderBoxSize[0];
    if (box) return Math.round(box.blockSize);
    const index = instance.indexFromElement(element);
    return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
  },
};
