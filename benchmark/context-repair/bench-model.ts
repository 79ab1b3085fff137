import { APICallError, type LanguageModelV3, type SharedV3ProviderOptions } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import type { CanonicalRequest } from '../../protocol/index.ts';
import { environmentWithDotenv, resolveWeftHome, SecretsStore, SettingsStore } from '../../runtime/fs/index.ts';
import {
  createLanguageModel,
  createOllamaNativeModel,
  ModelRegistry,
  splitModelId,
  streamAnswer,
  toModelMessages,
} from '../../runtime/models/index.ts';
import type { ScriptedFailure } from './scripted-model-server.ts';
import { SCRIPTED_MODEL_NAMES } from './scripted-models.ts';

/** Fixed for every run; providers that take a seed get it (Anthropic has none). */
export const BENCH_SEED = 7;
export const BENCH_TEMPERATURE = 0;

/** How one request was sampled, recorded in its trace. */
export interface CallSettings {
  temperature: number;
  seed: number | null;
  /** Ollama's context window, set per request from the prompt's size (null elsewhere). */
  numCtx: number | null;
}

export type BenchAnswer =
  | { ok: true; text: string; finishReason: string; inputTokens: number | null; outputTokens: number | null }
  | {
      ok: false;
      code: string;
      message: string;
      /** The HTTP status the provider answered with, and its Retry-After header (null when none): for retries. */
      status: number | null;
      retryAfter: string | null;
    };

export interface BenchModel {
  id: string;
  /** True for the scripted reference models: their results are checks of the pipeline, never model results. */
  scripted: boolean;
  /** The provider kind the id resolved to (`openai-compatible` for the scripted server). */
  providerKind: string;
  settingsFor(request: CanonicalRequest): CallSettings;
  ask(request: CanonicalRequest, settings: CallSettings): Promise<BenchAnswer>;
  close(): Promise<void>;
}

/** What a failed HTTP call said beyond its coded failure: its status and Retry-After, for `call-retry.ts`. */
function recordingFailures(language: LanguageModelV3): {
  model: LanguageModelV3;
  failure: { status: number | null; retryAfter: string | null };
} {
  const failure = { status: null as number | null, retryAfter: null as string | null };
  const model = wrapLanguageModel({
    model: language,
    middleware: {
      specificationVersion: 'v3',
      wrapStream: async ({ doStream }) => {
        try {
          return await doStream();
        } catch (error) {
          if (APICallError.isInstance(error)) {
            failure.status = error.statusCode ?? null;
            const headers = error.responseHeaders ?? {};
            const name = Object.keys(headers).find((key) => key.toLowerCase() === 'retry-after');
            failure.retryAfter = name ? (headers[name] ?? null) : null;
          }
          throw error;
        }
      },
    },
  });
  return { model, failure };
}

/** A window with room for the prompt (4 characters a token, rounded up to 1,024) and the reply; at least 4,096. */
export function numCtxFor(request: CanonicalRequest): number {
  const promptTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  return Math.max(4096, Math.ceil((promptTokens + 1024) / 1024) * 1024);
}

/**
 * Opens `provider/model` the way the app's server resolves it (settings, stored keys, environment, a detected
 * Ollama), or `scripted/adopt` / `scripted/heed-stale` served on 127.0.0.1 behind the same AI SDK client.
 */
export async function openBenchModel(
  modelId: string,
  env: NodeJS.ProcessEnv = process.env,
  /** For a scripted model: failures its server serves before answering (the retry tests). */
  scripted: { failures?: readonly ScriptedFailure[] } = {},
): Promise<BenchModel> {
  const split = splitModelId(modelId);
  if (!split)
    throw Object.assign(new Error(`"${modelId}" is not a model id of the form provider/model`), { code: 'bad-model' });
  let language: LanguageModelV3;
  let providerKind: string;
  let secrets: readonly string[] = [];
  let close = () => Promise.resolve();
  if (split.providerId === 'scripted') {
    if (!(SCRIPTED_MODEL_NAMES as readonly string[]).includes(split.model))
      throw Object.assign(new Error(`no scripted model "${split.model}" (adopt, heed-stale)`), { code: 'bad-model' });
    // Loaded only here: the scripted server rides on the shared test provider, which a real run never needs.
    const { startScriptedModelServer } = await import('./scripted-model-server.ts');
    const server = await startScriptedModelServer(scripted);
    close = () => server.close();
    providerKind = 'openai-compatible';
    language = createLanguageModel(
      {
        id: 'scripted',
        kind: 'openai-compatible',
        baseUrl: server.baseUrl,
        enabled: true,
        models: [],
        apiKey: null,
        source: 'settings',
      },
      split.model,
    );
  } else {
    const home = resolveWeftHome(env);
    const registry = new ModelRegistry({
      settings: new SettingsStore(home),
      secrets: new SecretsStore(home),
      environment: environmentWithDotenv(env, `${process.cwd()}/.env`),
    });
    const provider = (await registry.providers()).find((candidate) => candidate.id === split.providerId);
    if (!provider)
      throw Object.assign(
        new Error(`no provider "${split.providerId}" is configured (settings, keys, or a running Ollama)`),
        {
          code: 'model-missing',
        },
      );
    providerKind = provider.kind;
    secrets = await registry.secretValues();
    language =
      provider.kind === 'ollama'
        ? createOllamaNativeModel(provider.baseUrl, split.model)
        : await registry.resolve(modelId);
  }
  const takesSeed = providerKind !== 'anthropic';
  return {
    id: modelId,
    scripted: split.providerId === 'scripted',
    providerKind,
    settingsFor: (request) => ({
      temperature: BENCH_TEMPERATURE,
      seed: takesSeed ? BENCH_SEED : null,
      numCtx: providerKind === 'ollama' ? numCtxFor(request) : null,
    }),
    async ask(request, settings) {
      const providerOptions: SharedV3ProviderOptions | undefined =
        settings.numCtx !== null
          ? {
              ollama: { options: { num_ctx: settings.numCtx, temperature: settings.temperature, seed: settings.seed } },
            }
          : undefined;
      let text = '';
      const recorded = recordingFailures(language);
      for await (const event of streamAnswer({
        model: recorded.model,
        messages: toModelMessages(request, new Map()),
        abortSignal: AbortSignal.timeout(600_000),
        secrets,
        temperature: settings.temperature,
        ...(settings.seed !== null ? { seed: settings.seed } : {}),
        ...(providerOptions ? { providerOptions } : {}),
      })) {
        if (event.type === 'text-delta') text += event.delta;
        if (event.type === 'answer-failed')
          return { ok: false, code: event.code, message: event.message, ...recorded.failure };
        if (event.type === 'answer-finished')
          return {
            ok: true,
            text,
            finishReason: event.finishReason,
            inputTokens: event.usage?.inputTokens ?? null,
            outputTokens: event.usage?.outputTokens ?? null,
          };
      }
      return {
        ok: false,
        code: 'provider-error',
        message: 'the stream ended without an answer',
        status: null,
        retryAfter: null,
      };
    },
    close,
  };
}
