// src/ui: the Weft renderer (React 19 + @xyflow/react + zustand + Dexie). Entry: main.tsx.
export { App } from './app/index.ts';
export { StoreContext, useWeft, useWeftStore } from './kit/index.ts';
export { createWeftStore, createIdGenerator, plannedRequest } from './store/index.ts';
export type { WeftStore, WeftState, AppDependencies } from './store/index.ts';
export { createApiClient, streamGenerate, ApiClientError, describeError } from './api/index.ts';
export type { ApiClient, ApiClientOptions } from './api/index.ts';
export { WeftDatabase, CanvasWriter, persistenceCounters } from './db/index.ts';
export { commandRegistry, runCommand, canvasBridge } from './commands/index.ts';
