import { useStore } from 'zustand';
import { atlasStore, type AtlasState } from './atlas-state.ts';

export function useAtlas<T>(selector: (state: AtlasState) => T): T {
  return useStore(atlasStore, selector);
}
