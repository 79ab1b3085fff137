import { keyOrigin } from '../../../protocol/index.ts';
import type { ProviderKind } from '../../../protocol/index.ts';

/** What Settings says after a save removed keys because their base URL moved to another origin. */
export function keysClearedMessage(providerIds: readonly string[]): string {
  const names = providerIds.map((id) => `“${id}”`).join(', ');
  return `${providerIds.length === 1 ? 'The key of' : 'The keys of'} ${names} ${providerIds.length === 1 ? 'was' : 'were'} removed: a key is kept only for the host it was entered for, and the base URL now points elsewhere. Enter the key again if you trust the new host.`;
}

/** What Settings says after a save pointed providers away from the official host their environment key is for. */
export function environmentKeysDetachedMessage(providerIds: readonly string[]): string {
  const names = providerIds.map((id) => `“${id}”`).join(', ');
  return `${names} no longer ${providerIds.length === 1 ? 'uses' : 'use'} the key from the environment: that key goes only to its provider's official host, and ${providerIds.length === 1 ? 'this entry now points' : 'these entries now point'} elsewhere. Enter a key for the new host if you trust it.`;
}

/**
 * The warning beside a provider whose draft base URL leads to another origin than the one its saved key
 * was entered for (null when saving keeps the key): saving removes the key unless a new one is typed.
 */
export function keyOriginWarning(draft: {
  kind: ProviderKind;
  hasKey: boolean;
  apiKey: string;
  baseUrl: string;
  savedBaseUrl: string | null;
}): string | null {
  if (!draft.hasKey || draft.apiKey) return null;
  const before = keyOrigin(draft.kind, draft.savedBaseUrl);
  // An empty field keeps the saved base URL (the save leaves it out).
  const after = draft.baseUrl.trim() ? keyOrigin(draft.kind, draft.baseUrl.trim()) : before;
  if (before === after) return null;
  return `The saved key was entered for ${before}. Saving with this base URL (${after}) removes it; enter the key again for the new host.`;
}
