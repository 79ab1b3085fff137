import type { HLJSApi } from 'highlight.js';

/**
 * highlight.js (its common languages and the GitHub theme) is fetched the first time an answer holds a code
 * block, so a canvas without code never loads it. Until it arrives code shows plain; then every answer with
 * code re-renders once.
 */
let loaded: HLJSApi | null = null;
let loading: Promise<HLJSApi> | null = null;
const listeners = new Set<() => void>();

export function highlighter(): HLJSApi | null {
  return loaded;
}

export function loadHighlighter(): Promise<HLJSApi> {
  loading ??= Promise.all([import('highlight.js/lib/common'), import('highlight.js/styles/github.css')]).then(
    ([module]) => {
      loaded = module.default;
      for (const listener of listeners) listener();
      return loaded;
    },
  );
  return loading;
}

export function onHighlighterLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Highlighted HTML for a code block, or null while the highlighter is not loaded (or the language unknown). */
export function highlightCode(code: string, language: string | undefined): string | null {
  if (!loaded) return null;
  if (language && loaded.getLanguage(language)) return loaded.highlight(code, { language }).value;
  return language ? null : loaded.highlightAuto(code).value;
}
