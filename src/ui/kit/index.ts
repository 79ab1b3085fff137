// src/ui/react: the React plumbing every feature shares (store context, small hooks, error boundary, render counts).
export { ErrorBoundary } from './ErrorBoundary.tsx';
export { StoreContext, useWeft, useWeftStore } from './store-context.tsx';
export { useEscape } from './use-escape.ts';
export { useOutsidePress } from './use-outside-press.ts';
export { countRender, renderCounts } from './render-counts.ts';
