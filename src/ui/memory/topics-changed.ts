import { createStore } from 'zustand/vanilla';

/** Bumped whenever the topics section reads a new table, so the dossiers section lists the same topics. */
export const topicsChanged = createStore<{ revision: string | null }>(() => ({ revision: null }));
