import type { ProviderKind } from './http-api.ts';

/** The WHATWG URL parser every runtime has (the one fetch uses); protocol/ is compiled without DOM types. */
const WhatwgUrl = (globalThis as unknown as { URL: new (url: string) => { origin: string } }).URL;

/** Where each kind's SDK sends requests when no base URL is set. */
const DEFAULT_ORIGINS: Record<ProviderKind, string | null> = {
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
  openrouter: 'https://openrouter.ai',
  ollama: 'http://127.0.0.1:11434',
  'openai-compatible': null,
};

/**
 * The origin a provider's key is sent to (scheme, host and port of its base URL, or the kind's default
 * endpoint). A stored key is bound to the origin it was entered for: another origin never gets it.
 */
export function keyOrigin(kind: ProviderKind, baseUrl: string | null): string {
  if (baseUrl) {
    try {
      return new WhatwgUrl(baseUrl).origin;
    } catch {
      return `invalid:${baseUrl}`;
    }
  }
  return DEFAULT_ORIGINS[kind] ?? 'none';
}
