// src/ui/store: the zustand store; thin actions that call core and persist what changed.
export { createWeftStore } from './weft-store.ts';
export type { WeftStore } from './weft-store.ts';
export type { WeftState, View, Toast, LiveStream, ReplayProgress, AskOptions } from './weft-state.ts';
export type { AppDependencies } from './app-dependencies.ts';
export { createIdGenerator } from './app-dependencies.ts';
export { plannedRequest, modelFor, nodePrices } from './planned-request.ts';
export { recordsFromGraph } from './store-runtime.ts';
