import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  defaultSessionArchiveSettings,
  SessionArchiveSettingsSchema,
  type SessionArchiveSettings,
} from '../fs/index.ts';

/**
 * The preservation setting from `$WEFT_HOME/settings.json` (written by the app's Settings). Read on every
 * update, so a change made in the app reaches the CLI's next query. Missing or unreadable: the default, on.
 */
export function readArchiveSettings(weftHome: string): SessionArchiveSettings {
  let text: string;
  try {
    text = readFileSync(join(weftHome, 'settings.json'), 'utf8');
  } catch {
    return defaultSessionArchiveSettings();
  }
  try {
    const parsed = SessionArchiveSettingsSchema.safeParse(
      (JSON.parse(text) as { sessionArchive?: unknown }).sessionArchive,
    );
    return parsed.success ? parsed.data : defaultSessionArchiveSettings();
  } catch {
    return defaultSessionArchiveSettings();
  }
}

/** Whether copies of this runner's session files are kept. */
export function archiveKeeps(settings: SessionArchiveSettings, runner: string | null): boolean {
  if (!settings.enabled || runner === null) return false;
  return settings.runners[runner as keyof SessionArchiveSettings['runners']] ?? false;
}
