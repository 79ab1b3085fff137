import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from './json-file-store.ts';
import type { AtomicFileSystem } from './atomic-write.ts';

export const StoredProviderSchema = z.object({
  id: z.string(),
  kind: z.enum(['openai', 'anthropic', 'openrouter', 'openai-compatible', 'ollama']),
  baseUrl: z.string().nullable(),
  enabled: z.boolean(),
  models: z.array(z.string()),
});
export type StoredProvider = z.infer<typeof StoredProviderSchema>;

/**
 * Keep a compressed copy of every session file Weft indexes (`$WEFT_HOME/archive/`), so a session the agent
 * deletes stays browsable and answerable. On by default; a runner switched off has its copies dropped.
 */
export const SessionArchiveSettingsSchema = z.object({
  enabled: z.boolean(),
  runners: z.object({ 'claude-code': z.boolean(), codex: z.boolean(), pi: z.boolean() }),
});
export type SessionArchiveSettings = z.infer<typeof SessionArchiveSettingsSchema>;

export function defaultSessionArchiveSettings(): SessionArchiveSettings {
  return { enabled: true, runners: { 'claude-code': true, codex: true, pi: true } };
}

export const StoredSettingsSchema = z.object({
  version: z.literal(1),
  providers: z.array(StoredProviderSchema),
  judgeModelId: z.string().nullable(),
  backupFolder: z.string().nullable(),
  defaultModelId: z.string().nullable(),
  /** Absent in files written before the archive existed: read as the default (on). */
  sessionArchive: SessionArchiveSettingsSchema.optional(),
  /** C32: absent means the rule writes plaques (no model call per answer unless the person opts in). */
  plaqueWriter: z.enum(['model', 'rule']).optional(),
  /**
   * The Session Atlas roots the person chose in Settings (real folder paths, checked when added). Absent: the
   * runners' default folders. `WEFT_SESSION_ROOTS` overrides both (`runtime/atlas/session-roots.ts`).
   */
  sessionRoots: z.array(z.string()).optional(),
  /**
   * Issue 29.1: memory writes that skip the Inbox. Absent: profile facts wait for the person's review; a dossier's
   * new sentences are accepted (each cites its turns) unless `dossierSentences` is false.
   */
  memoryAutoAccept: z.object({ profileFacts: z.boolean(), dossierSentences: z.boolean().optional() }).optional(),
  /** Issue 31: the most one ask of a model set may cost, in US dollars. Absent or null: no cap. */
  setCapUsd: z.number().nonnegative().max(10_000).nullable().optional(),
});
export type StoredSettings = z.infer<typeof StoredSettingsSchema>;

export function emptySettings(): StoredSettings {
  return { version: 1, providers: [], judgeModelId: null, backupFolder: null, defaultModelId: null };
}

/** Non-secret settings in `$WEFT_HOME/settings.json` (0600, atomic). Keys live in SecretsStore. */
export class SettingsStore {
  private readonly file: JsonFileStore<StoredSettings>;

  constructor(home: string, fileSystem?: AtomicFileSystem) {
    this.file = new JsonFileStore(join(home, 'settings.json'), StoredSettingsSchema, emptySettings, fileSystem);
  }

  read(): Promise<StoredSettings> {
    return this.file.read();
  }

  update(change: (current: StoredSettings) => StoredSettings): Promise<StoredSettings> {
    return this.file.update(change);
  }
}
