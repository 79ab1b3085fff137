import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { WeftStore, WeftState } from '../store/index.ts';

export const StoreContext = createContext<WeftStore | null>(null);

export function useWeftStore(): WeftStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('StoreContext is missing');
  return store;
}

/** Subscribe to one slice of state; pick primitives or stable references to keep renders narrow. */
export function useWeft<T>(selector: (state: WeftState) => T): T {
  return useStore(useWeftStore(), selector);
}
