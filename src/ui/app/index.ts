// src/ui/app: the shell (top bar, views, toasts, palette); the store context lives in src/ui/react.
export { App } from './App.tsx';
