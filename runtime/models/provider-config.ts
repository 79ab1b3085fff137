import type { ProviderKind } from '../../protocol/http-api.ts';
import type { StoredSettings } from '../fs/settings-store.ts';

/** A provider as the registry uses it: settings merged with its key (from secrets or the environment). */
export interface ProviderConfig {
  id: string;
  kind: ProviderKind;
  baseUrl: string | null;
  enabled: boolean;
  models: string[];
  apiKey: string | null;
  source: 'settings' | 'environment' | 'detected';
}

/** Environment variables that configure a hosted provider without any settings. */
export const ENVIRONMENT_KEYS: { variable: string; id: string; kind: ProviderKind }[] = [
  { variable: 'OPENAI_API_KEY', id: 'openai', kind: 'openai' },
  { variable: 'ANTHROPIC_API_KEY', id: 'anthropic', kind: 'anthropic' },
  { variable: 'OPENROUTER_API_KEY', id: 'openrouter', kind: 'openrouter' },
];

/** Merge stored settings, stored keys and environment keys; a key entered in the app wins over the environment. */
export function mergeProviders(
  settings: StoredSettings,
  storedKeys: Record<string, string>,
  environment: Record<string, string | undefined>,
): ProviderConfig[] {
  const environmentKeyFor = (id: string): string | null => {
    const entry = ENVIRONMENT_KEYS.find((candidate) => candidate.id === id);
    const value = entry ? environment[entry.variable]?.trim() : undefined;
    return value ? value : null;
  };
  const providers: ProviderConfig[] = settings.providers.map((stored) => ({
    id: stored.id,
    kind: stored.kind,
    baseUrl: stored.baseUrl,
    enabled: stored.enabled,
    models: stored.models,
    apiKey: storedKeys[stored.id] ?? environmentKeyFor(stored.id),
    source: 'settings',
  }));
  for (const entry of ENVIRONMENT_KEYS) {
    const key = environmentKeyFor(entry.id);
    if (!key || providers.some((provider) => provider.id === entry.id)) continue;
    providers.push({
      id: entry.id,
      kind: entry.kind,
      baseUrl: null,
      enabled: true,
      models: [],
      apiKey: storedKeys[entry.id] ?? key,
      source: 'environment',
    });
  }
  return providers;
}

/** Whether a provider can be called at all: hosted ones need a key, local ones a base URL. */
export function isUsable(provider: ProviderConfig): boolean {
  if (!provider.enabled) return false;
  switch (provider.kind) {
    case 'openai':
    case 'anthropic':
    case 'openrouter':
      return Boolean(provider.apiKey);
    case 'openai-compatible':
      return Boolean(provider.baseUrl);
    case 'ollama':
      return true;
  }
}
