import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Runner, AtlasSessionsResponse, AtlasSort, AtlasWhyResponse } from '../../../protocol/index.ts';

/**
 * The Atlas views' own UI state; whether they are open is the canvas store's `view` (the Atlas only applies
 * changes through that store).
 */
export interface AtlasState {
  runner: Runner | null;
  project: string | null;
  query: string;
  sort: AtlasSort;
  subagents: boolean;
  listing: AtlasSessionsResponse | null;
  loading: boolean;
  error: string | null;
  selected: { runner: Runner; sessionId: string } | null;
  /** Session being mirrored (the button shows progress). */
  mirroring: string | null;
  whyTarget: string;
  whyResult: AtlasWhyResponse | null;
  whyLoading: boolean;
  whyError: string | null;
  /** The open canvas's working directory when the question was asked (a relative path may be relative to it). */
  whyWorkingDirectory: string | null;
  /** Show read-only turns too (off by default, like `weft why`: reads show only when nothing else touched it). */
  whyIncludeRead: boolean;
  /** Issue 32.4: ask the team's index (Settings → Team index) instead of this machine's. */
  whyFromTeam: boolean;
}

export type AtlasStore = StoreApi<AtlasState>;

export function createAtlasStore(): AtlasStore {
  return createStore<AtlasState>()(() => ({
    runner: null,
    project: null,
    query: '',
    sort: 'recent',
    subagents: false,
    listing: null,
    loading: false,
    error: null,
    selected: null,
    mirroring: null,
    whyTarget: '',
    whyResult: null,
    whyLoading: false,
    whyError: null,
    whyWorkingDirectory: null,
    whyIncludeRead: false,
    whyFromTeam: false,
  }));
}

/** One Atlas state for the page (the app has one canvas store too). */
export const atlasStore: AtlasStore = createAtlasStore();
