import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

/** What a right-click was on: a node, a wire, or the empty pane at a flow position. */
export type MenuTarget =
  | { kind: 'node'; nodeId: string }
  | { kind: 'wire'; wireId: string }
  | { kind: 'pane'; flowPosition: { x: number; y: number } };

export interface OverlayState {
  palette: boolean;
  shortcuts: boolean;
  /** The open context menu and where on the screen it opened. */
  menu: { target: MenuTarget; x: number; y: number } | null;
}

/** The palette, the shortcut sheet and the context menu: view state only, never part of a canvas or its undo. */
export const overlays = createStore<OverlayState>(() => ({ palette: false, shortcuts: false, menu: null }));

export function useOverlays<Selected>(select: (state: OverlayState) => Selected): Selected {
  return useStore(overlays, select);
}
