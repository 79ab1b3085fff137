// runtime/memory: the profile under $WEFT_HOME/memory/ and the memory judge run after an ordinary ask (C13–C14).
export { MemoryStore, memoryDirectory, MAX_ACTIVITY } from './memory-store.ts';
export type { MemoryChange, MemoryJournal, MemoryStoreOptions, StoredMemory } from './memory-store.ts';
export { judgeExchange } from './judge-exchange.ts';
export type { JudgeExchangeDependencies, JudgedExchange } from './judge-exchange.ts';
export { UndoBook, UNDO_KEEP_MS } from './undo-book.ts';
export { AdditionsWindow, VISIT_WINDOW_MS } from './additions-window.ts';
export { MemoryJournals } from './memory-journals.ts';
export { turnPutAside } from './turn-put-aside.ts';
export { journalPutAsides, journaledPutAsideStore } from './journal-put-asides.ts';
export { putAsideItems, restorePutAside } from './put-aside-items.ts';
