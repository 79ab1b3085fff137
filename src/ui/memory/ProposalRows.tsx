import type { ReactNode } from 'react';
import type { usePagedList } from './use-paged-list.ts';

type PagedRowsOf<Item extends { id: string }> = Pick<
  ReturnType<typeof usePagedList<Item, { nextCursor: string | null; total: number }>>,
  'items' | 'scroller' | 'virtualizer'
>;

/**
 * The Inbox's proposals as windowed rows (the facts and the dossier sentences alike): the scroller `usePagedList`
 * watches, and one measured row per proposal shown, its content drawn by `children`.
 */
export function ProposalRows<Item extends { id: string }>({
  paged: { items, scroller, virtualizer },
  scrollTestId,
  rowTestId,
  children,
}: {
  paged: PagedRowsOf<Item>;
  scrollTestId: string;
  rowTestId: string;
  children: (item: Item) => ReactNode;
}) {
  return (
    <div className="memory-inbox-scroll" ref={scroller} data-testid={scrollTestId}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index]!;
          return (
            <div
              key={item.id}
              ref={virtualizer.measureElement}
              data-index={row.index}
              className="memory-proposal"
              data-testid={rowTestId}
              data-proposal-id={item.id}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
            >
              {children(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
