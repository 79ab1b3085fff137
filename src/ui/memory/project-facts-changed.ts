import { createStore } from 'zustand/vanilla';

/** Bumped when the Inbox files or discards a project fact, so the dossiers section rereads its counts and view. */
export const projectFactsChanged = createStore<{ revision: number }>(() => ({ revision: 0 }));
