import { useStore } from '@xyflow/react';

/** How much a card shows: everything, its title and status, or a dot. */
export type DetailLevel = 'full' | 'summary' | 'dot';

/** Below this zoom a card's text is too small to read: title and status only. */
export const SUMMARY_BELOW_ZOOM = 0.45;
/** Below this zoom a card is a few pixels across: a coloured dot. */
export const DOT_BELOW_ZOOM = 0.2;

export function detailLevelAt(zoom: number): DetailLevel {
  return zoom < DOT_BELOW_ZOOM ? 'dot' : zoom < SUMMARY_BELOW_ZOOM ? 'summary' : 'full';
}

/**
 * The detail level at the current zoom. The selector returns the level, not the zoom, so a card re-renders only
 * when it crosses a threshold — not on every frame of a zoom.
 */
export function useDetailLevel(): DetailLevel {
  return useStore((state) => detailLevelAt(state.transform[2]));
}
