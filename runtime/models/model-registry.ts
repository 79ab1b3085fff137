import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  OFFLINE_RECEIPT_LABEL,
  OFFLINE_RECEIPT_MODEL_ID,
  type ModelInfo,
  type ProviderKind,
  WeftError,
} from '../../protocol/index.ts';
import type { SecretsStore, SettingsStore } from '../fs/index.ts';
import { createLanguageModel } from './create-language-model.ts';
import { describeCustomModel, KNOWN_MODELS } from './known-models.ts';
import { DEFAULT_OLLAMA_URL, detectOllamaModels } from './ollama-detect.ts';
import {
  ENVIRONMENT_KEYS,
  environmentKeyFor,
  isUsable,
  mergeProviders,
  type ProviderConfig,
} from './provider-config.ts';
import { ReceiptModel } from './receipt-model.ts';

export interface ModelRegistryOptions {
  settings: SettingsStore;
  secrets: SecretsStore;
  /** `.env` values merged under the process environment. */
  environment: Record<string, string | undefined>;
  /** Where to look for Ollama; null turns detection off (tests). */
  ollamaUrl?: string | null;
  now?: () => number;
}

const RECEIPT_INFO: ModelInfo = {
  id: OFFLINE_RECEIPT_MODEL_ID,
  provider: 'offline',
  label: OFFLINE_RECEIPT_LABEL,
  contextWindow: 1_000_000,
  takesImages: true,
  offline: true,
  pricePerMTokIn: 0,
  pricePerMTokOut: 0,
};

const OLLAMA_CACHE_MS = 10_000;

/** Split `provider/model`; the model part may itself contain slashes (OpenRouter). */
export function splitModelId(modelId: string): { providerId: string; model: string } | null {
  const slash = modelId.indexOf('/');
  if (slash <= 0 || slash === modelId.length - 1) return null;
  return { providerId: modelId.slice(0, slash), model: modelId.slice(slash + 1) };
}

/** Which models can be called, and the AI SDK model for an id. */
export class ModelRegistry {
  private ollamaCache: { at: number; models: string[] | null } | null = null;
  /** Resolved models by id, reused until settings or keys change (keeps the first-token path short). */
  private readonly resolved = new Map<string, LanguageModelV3>();
  private readonly now: () => number;

  constructor(private readonly options: ModelRegistryOptions) {
    this.now = options.now ?? Date.now;
  }

  private async ollamaModels(baseUrl: string): Promise<string[] | null> {
    const cached = this.ollamaCache;
    if (cached && this.now() - cached.at < OLLAMA_CACHE_MS) return cached.models;
    const models = await detectOllamaModels(baseUrl);
    this.ollamaCache = { at: this.now(), models };
    return models;
  }

  /** Every provider: stored, from the environment, and a detected local Ollama. */
  async providers(): Promise<ProviderConfig[]> {
    const [settings, keys] = await Promise.all([this.options.settings.read(), this.options.secrets.boundKeys()]);
    const providers = mergeProviders(settings, keys, this.options.environment);
    const ollamaUrl = this.options.ollamaUrl === undefined ? DEFAULT_OLLAMA_URL : this.options.ollamaUrl;
    const configuredOllama = providers.find((provider) => provider.kind === 'ollama');
    const probeUrl = configuredOllama?.baseUrl ?? ollamaUrl;
    if (probeUrl && (!configuredOllama || configuredOllama.enabled)) {
      const installed = await this.ollamaModels(probeUrl);
      if (configuredOllama && installed && configuredOllama.models.length === 0) configuredOllama.models = installed;
      if (!configuredOllama && installed) {
        providers.push({
          id: 'ollama',
          kind: 'ollama',
          baseUrl: probeUrl,
          enabled: true,
          models: installed,
          apiKey: null,
          source: 'detected',
        });
      }
    }
    return providers;
  }

  async listModels(): Promise<{ models: ModelInfo[]; defaultModelId: string }> {
    const providers = (await this.providers()).filter(isUsable);
    const models: ModelInfo[] = [RECEIPT_INFO];
    for (const provider of providers) {
      const names = provider.models.length
        ? provider.models
        : provider.kind === 'openai' || provider.kind === 'anthropic' || provider.kind === 'openrouter'
          ? KNOWN_MODELS[provider.kind].map((entry) => entry.model)
          : [];
      for (const name of names) {
        const known = describeCustomModel(provider.kind, name);
        models.push({
          id: `${provider.id}/${name}`,
          provider: provider.id,
          label: known.label,
          contextWindow: known.contextWindow,
          takesImages: known.takesImages,
          offline: false,
          pricePerMTokIn: known.pricePerMTokIn,
          pricePerMTokOut: known.pricePerMTokOut,
        });
      }
    }
    const { defaultModelId } = await this.options.settings.read();
    const chosen = defaultModelId && models.some((model) => model.id === defaultModelId) ? defaultModelId : null;
    // The receipt model is the default only when nothing real is configured (C12).
    const fallback = models.find((model) => !model.offline)?.id ?? OFFLINE_RECEIPT_MODEL_ID;
    return { models, defaultModelId: chosen ?? fallback };
  }

  /** The AI SDK model for an id; the receipt model is told the request hash it answers. */
  async resolve(modelId: string, context: { requestHash?: string | null } = {}): Promise<LanguageModelV3> {
    if (modelId === OFFLINE_RECEIPT_MODEL_ID) return new ReceiptModel({ requestHash: context.requestHash ?? null });
    const cached = this.resolved.get(modelId);
    if (cached) return cached;
    const model = await this.resolveUncached(modelId);
    this.resolved.set(modelId, model);
    return model;
  }

  /** Forget resolved models; call after settings or keys change. */
  invalidate(): void {
    this.resolved.clear();
    this.ollamaCache = null;
  }

  private async resolveUncached(modelId: string): Promise<LanguageModelV3> {
    const split = splitModelId(modelId);
    if (!split) throw new WeftError('model-missing', `"${modelId}" is not a model id of the form provider/model.`, 404);
    const provider = (await this.providers()).find((candidate) => candidate.id === split.providerId);
    if (!provider)
      throw new WeftError(
        'model-missing',
        `No provider "${split.providerId}" is configured for model "${modelId}".`,
        404,
      );
    if (!isUsable(provider)) {
      const reason = provider.enabled ? 'has no API key' : 'is turned off';
      throw new WeftError(provider.enabled ? 'bad-key' : 'model-missing', `Provider "${provider.id}" ${reason}.`, 400);
    }
    return createLanguageModel(provider, split.model);
  }

  /** Whether the environment's key would go to `provider` as it is configured (its kind's official origin only). */
  environmentKeyApplies(provider: { id: string; kind: ProviderKind; baseUrl: string | null }): boolean {
    return environmentKeyFor(provider, this.options.environment) !== null;
  }

  /** Every key value known, so error messages and logs can be scrubbed of them. */
  async secretValues(): Promise<string[]> {
    // Every stored key, bound to the current origin or not: none may ever appear in a message or a log.
    const stored = await this.options.secrets.allKeys();
    // Every environment key too, whether or not a provider may send it now (one pointed elsewhere may not).
    const environmentKeys = ENVIRONMENT_KEYS.map((entry) => this.options.environment[entry.variable]?.trim());
    const values = [...Object.values(stored), ...environmentKeys];
    return [...new Set(values.filter((key): key is string => Boolean(key)))];
  }
}
