import { jsonBody } from '../read-body.ts';
import express, { type Router } from 'express';
import { resolveBackupFolder } from '../../runtime/fs/index.ts';
import { protectedFolders } from '../protected-folders.ts';
import {
  OFFLINE_RECEIPT_MODEL_ID,
  SettingsUpdateSchema,
  type SettingsResponse,
  keyOrigin,
  WeftError,
} from '../../protocol/index.ts';
import { defaultSessionArchiveSettings, type StoredProvider, type StoredSettings } from '../../runtime/fs/index.ts';
import { currentKeyOrigin, ENVIRONMENT_KEYS } from '../../runtime/models/index.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/** Settings as the UI sees them: `hasKey`, never the key. */
async function currentSettings(context: ServerContext): Promise<SettingsResponse> {
  const [settings, providers] = await Promise.all([context.settings.read(), context.registry.providers()]);
  return {
    providers: providers.map((provider) => ({
      id: provider.id,
      kind: provider.kind,
      baseUrl: provider.baseUrl,
      hasKey: Boolean(provider.apiKey),
      enabled: provider.enabled,
      models: provider.models,
    })),
    judgeModelId: settings.judgeModelId,
    backupFolder: settings.backupFolder,
    defaultModelId: settings.defaultModelId,
    sessionArchive: settings.sessionArchive ?? defaultSessionArchiveSettings(),
    plaqueWriter: settings.plaqueWriter ?? 'rule',
    memoryAutoAccept: { dossierSentences: true, ...(settings.memoryAutoAccept ?? { profileFacts: false }) },
    setCapUsd: settings.setCapUsd ?? null,
  };
}

function checkBaseUrl(url: string | null | undefined): void {
  if (url === null || url === undefined) return;
  const protocol = new URL(url).protocol;
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new WeftError('invalid-body', 'A provider base URL must be http or https.', 400);
}

/** `GET/PUT /api/settings`: providers, keys (write-only), judge, backup folder, default model, session archive. */
export function settingsRoute(context: ServerContext): Router {
  const router = express.Router();
  router.get('/settings', async (_request, response) => {
    response.json(await currentSettings(context));
  });
  router.put('/settings', jsonBody(256 * 1024), async (request, response) => {
    const update = validateBody(SettingsUpdateSchema, request.body);
    for (const provider of update.providers ?? []) checkBaseUrl(provider.baseUrl);
    // The backup folder must be absolute and, by its real path, outside session roots and Weft's own records.
    if (update.backupFolder) await resolveBackupFolder(update.backupFolder, protectedFolders(context.home));
    // A key is bound to the origin it was entered for (`keyOrigin`): a provider whose base URL moves to another
    // origin loses its stored key, unless a new key comes in the same update.
    const stored = await context.settings.read();
    const storedKeys = await context.secrets.allKeys();
    const keys: Record<string, string | null> = {};
    const origins: Record<string, string> = {};
    const keysCleared: string[] = [];
    const environmentKeysDetached: string[] = [];
    for (const provider of update.providers ?? []) {
      const before = stored.providers.find((candidate) => candidate.id === provider.id);
      const baseUrl = provider.baseUrl !== undefined ? provider.baseUrl : (before?.baseUrl ?? null);
      const origin = keyOrigin(provider.kind, baseUrl);
      if (provider.apiKey !== undefined) {
        keys[provider.id] = provider.apiKey || null;
        if (provider.apiKey) origins[provider.id] = origin;
      } else {
        if (Object.hasOwn(storedKeys, provider.id) && currentKeyOrigin(stored, provider.id) !== origin) {
          keys[provider.id] = null;
          keysCleared.push(provider.id);
        }
        // The environment's key stays in the environment, but no longer goes to this entry: say so.
        const environmentBefore = before ?? ENVIRONMENT_KEYS.find((entry) => entry.id === provider.id);
        if (
          environmentBefore &&
          context.registry.environmentKeyApplies({ ...environmentBefore, baseUrl: before?.baseUrl ?? null }) &&
          !context.registry.environmentKeyApplies({ id: provider.id, kind: provider.kind, baseUrl })
        )
          environmentKeysDetached.push(provider.id);
      }
    }
    // A removed provider takes its key with it, and no model of its stays chosen as default or judge.
    const removed = new Set(update.removeProviders ?? []);
    for (const id of removed) {
      keys[id] = null;
      delete origins[id];
    }
    const ofRemoved = (modelId: string | null) =>
      modelId !== null && [...removed].some((id) => modelId.startsWith(`${id}/`) || modelId.startsWith(`${id}:`));
    // All or nothing: settings first, then every key in one atomic write; if the keys fail, the settings go back.
    let previous: StoredSettings | undefined;
    await context.settings.update((current) => {
      previous = current;
      const providers = current.providers.filter((provider) => !removed.has(provider.id));
      for (const change of update.providers ?? []) {
        if (removed.has(change.id)) continue;
        const index = providers.findIndex((provider) => provider.id === change.id);
        const previous = index >= 0 ? providers[index] : undefined;
        const next: StoredProvider = {
          id: change.id,
          kind: change.kind,
          baseUrl: change.baseUrl !== undefined ? change.baseUrl : (previous?.baseUrl ?? null),
          enabled: change.enabled ?? previous?.enabled ?? true,
          models: change.models ?? previous?.models ?? [],
        };
        if (index >= 0) providers[index] = next;
        else providers.push(next);
      }
      const judgeModelId = update.judgeModelId !== undefined ? update.judgeModelId : current.judgeModelId;
      const defaultModelId = update.defaultModelId !== undefined ? update.defaultModelId : current.defaultModelId;
      return {
        ...current,
        providers,
        judgeModelId: ofRemoved(judgeModelId) ? null : judgeModelId,
        backupFolder: update.backupFolder !== undefined ? update.backupFolder : current.backupFolder,
        // Removing the default's provider never hands requests to another provider silently: they go to the
        // offline receipt model (nothing leaves the machine) until the person chooses a default.
        defaultModelId: ofRemoved(defaultModelId) ? OFFLINE_RECEIPT_MODEL_ID : defaultModelId,
        ...(update.sessionArchive || current.sessionArchive
          ? { sessionArchive: update.sessionArchive ?? current.sessionArchive }
          : {}),
        ...(update.plaqueWriter || current.plaqueWriter
          ? { plaqueWriter: update.plaqueWriter ?? current.plaqueWriter }
          : {}),
        ...(update.memoryAutoAccept || current.memoryAutoAccept
          ? {
              // One switch changed keeps the other as it was.
              memoryAutoAccept: update.memoryAutoAccept
                ? { ...current.memoryAutoAccept, ...update.memoryAutoAccept }
                : current.memoryAutoAccept,
            }
          : {}),
        ...(update.setCapUsd !== undefined ? { setCapUsd: update.setCapUsd } : {}),
      };
    });
    try {
      await context.secrets.setKeys(keys, origins);
    } catch (error) {
      const restore = previous!;
      await context.settings
        .update(() => restore)
        .catch((restoreError: unknown) => {
          context.logger.error('settings could not be restored after a failed key write', {
            code: (restoreError as { code?: string }).code,
          });
        });
      throw error;
    }
    await context.refreshSecrets();
    context.logger.info('settings updated', {
      providers: (update.providers ?? []).map((provider) => provider.id),
      keysCleared,
      environmentKeysDetached,
    });
    context.hub.publish({ type: 'settings-changed' });
    response.json({ ...(await currentSettings(context)), keysCleared, environmentKeysDetached });
  });
  return router;
}
