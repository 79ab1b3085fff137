import type { ProviderKind } from '../../protocol/index.ts';
import type { StoredSettings } from '../fs/index.ts';
import { keyOrigin } from '../../protocol/index.ts';

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

/** A stored key and the origin it was entered for (null: stored before keys were bound). */
export interface BoundKey {
  key: string;
  origin: string | null;
}

/**
 * The origin provider `id` sends its key to now: its stored base URL, or for a provider known only from
 * the environment its kind's default endpoint. Null when no such provider exists.
 */
export function currentKeyOrigin(settings: StoredSettings, id: string): string | null {
  const stored = settings.providers.find((provider) => provider.id === id);
  if (stored) return keyOrigin(stored.kind, stored.baseUrl);
  const fromEnvironment = ENVIRONMENT_KEYS.find((entry) => entry.id === id);
  return fromEnvironment ? keyOrigin(fromEnvironment.kind, null) : null;
}

/**
 * The environment key provider `provider` may send: the variable named for its id, and only while the provider is
 * of that variable's kind and points at that kind's official origin (base URL unset or on that origin). An entry
 * that points elsewhere — another host, or another kind — asks for a key of its own: the environment's key was
 * given for the official service, not for whatever host a settings entry names.
 */
export function environmentKeyFor(
  provider: { id: string; kind: ProviderKind; baseUrl: string | null },
  environment: Record<string, string | undefined>,
): string | null {
  const entry = ENVIRONMENT_KEYS.find((candidate) => candidate.id === provider.id);
  if (!entry || entry.kind !== provider.kind) return null;
  if (keyOrigin(provider.kind, provider.baseUrl) !== keyOrigin(entry.kind, null)) return null;
  const value = environment[entry.variable]?.trim();
  return value ? value : null;
}

/**
 * Merge stored settings, stored keys and environment keys; a key entered in the app wins over the environment.
 * A stored key is used only towards the origin it was entered for: after the base URL moved elsewhere it is
 * as good as absent; an environment key goes only to its kind's official origin (`environmentKeyFor`).
 */
export function mergeProviders(
  settings: StoredSettings,
  boundKeys: Record<string, BoundKey>,
  environment: Record<string, string | undefined>,
): ProviderConfig[] {
  const storedKeys: Record<string, string> = {};
  for (const [id, bound] of Object.entries(boundKeys)) {
    if (bound.origin !== null && bound.origin === currentKeyOrigin(settings, id)) storedKeys[id] = bound.key;
  }
  const providers: ProviderConfig[] = settings.providers.map((stored) => ({
    id: stored.id,
    kind: stored.kind,
    baseUrl: stored.baseUrl,
    enabled: stored.enabled,
    models: stored.models,
    apiKey: storedKeys[stored.id] ?? environmentKeyFor(stored, environment),
    source: 'settings',
  }));
  for (const entry of ENVIRONMENT_KEYS) {
    const key = environmentKeyFor({ ...entry, baseUrl: null }, environment);
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
