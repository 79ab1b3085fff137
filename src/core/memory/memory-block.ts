import type { MemoryProfile } from '../../../protocol/index.ts';
import { currentLines } from './profile.ts';

/**
 * The `[Memory]` block that rides an ordinary generation: both documents' current lines, no notes or
 * provenance. Null when both are empty (nothing to send). Deterministic, so the preview hash equals the request's.
 */
export function memoryBlock(profile: MemoryProfile): string | null {
  const preferences = currentLines(profile, 'preferences').map((line) => `- ${line.text}`);
  const identity = currentLines(profile, 'identity').map((line) => `- ${line.text}`);
  if (preferences.length === 0 && identity.length === 0) return null;
  const parts = ['[Memory]'];
  if (preferences.length > 0) parts.push('Preferences:', ...preferences);
  if (identity.length > 0) parts.push('Identity:', ...identity);
  return parts.join('\n');
}
