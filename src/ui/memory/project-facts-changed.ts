import { createStore } from 'zustand/vanilla';

/**
 * Bumped when the Inbox decides something a dossier holds — a project fact filed or discarded, a dossier sentence
 * accepted — so the dossiers section rereads its counts and view.
 */
export const projectFactsChanged = createStore<{ revision: number }>(() => ({ revision: 0 }));
