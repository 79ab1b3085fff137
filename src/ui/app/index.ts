// src/ui/app: the shell (top bar, views, error boundaries, toasts) and the store context.
export { App } from './App.tsx';
export { ErrorBoundary } from './ErrorBoundary.tsx';
export { StoreContext, useWeft, useWeftStore } from './store-context.tsx';
