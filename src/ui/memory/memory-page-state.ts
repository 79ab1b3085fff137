import { createStore } from 'zustand/vanilla';

/** Whether the memory page covers the workspace (a top-level view, like the Atlas). */
export const memoryPage = createStore<{ open: boolean }>(() => ({ open: false }));
