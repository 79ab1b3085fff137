import type { LanguageModelV3, LanguageModelV3StreamPart, SharedV3Warning } from '@ai-sdk/provider';
import { NoSuchToolError } from 'ai';
import { convertToLanguageModelPrompt, prepareCallSettings } from 'ai/internal';
import { WeftError, type StreamEvent } from '../../protocol/index.ts';
import { boundToolOutput } from '../../src/core/index.ts';
import { mapProviderError, redactSecrets } from './provider-errors.ts';
import { ABORTED, tokenCount, toolInputText, UNFINISHED, type StreamAnswerOptions } from './stream-parts.ts';

/** Weft sends images as their bytes; a URL to fetch would be traffic nobody previewed. */
async function refuseDownloads(requests: readonly unknown[]): Promise<null[]> {
  if (requests.length > 0) throw new WeftError('invalid-body', 'A message refers to a file by URL.', 400);
  return [];
}

function warningText(warning: SharedV3Warning): string {
  switch (warning.type) {
    case 'unsupported':
      return `The feature "${warning.feature}" is not supported.${warning.details ? ` ${warning.details}` : ''}`;
    case 'compatibility':
      return `The feature "${warning.feature}" is used in a compatibility mode.${warning.details ? ` ${warning.details}` : ''}`;
    case 'other':
      return warning.message;
    default:
      return JSON.stringify(warning);
  }
}

/**
 * What the provider says it did not honour (a seed it ignores, a temperature a reasoning model drops), reported as
 * `streamText` reports it: through `AI_SDK_LOG_WARNINGS` when set (false silences it), else on the console.
 */
function reportWarnings(warnings: readonly SharedV3Warning[], model: LanguageModelV3): void {
  const logger = (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS;
  if (warnings.length === 0 || logger === false) return;
  if (typeof logger === 'function') {
    (logger as (report: { warnings: readonly SharedV3Warning[]; provider: string; model: string }) => void)({
      warnings,
      provider: model.provider,
      model: model.modelId,
    });
    return;
  }
  for (const warning of warnings)
    console.warn(`AI SDK Warning (${model.provider} / ${model.modelId}): ${warningText(warning)}`);
}

/** A provider's tool call when no tool was declared, recorded as the SDK's tool loop records it. */
function undeclaredCall(part: Extract<LanguageModelV3StreamPart, { type: 'tool-call' }>, secrets: readonly string[]) {
  const callId = part.toolCallId.slice(0, 200);
  const tool = part.toolName.slice(0, 64);
  let input: unknown = part.input;
  try {
    input = JSON.parse(part.input);
  } catch {
    // Not JSON: recorded as the text the model wrote.
  }
  const message = new NoSuchToolError({ toolName: part.toolName }).message;
  return [
    { type: 'tool-call-started', callId, tool, input: toolInputText(input) },
    {
      type: 'tool-call-finished',
      callId,
      tool,
      input: toolInputText(input),
      output: boundToolOutput(redactSecrets(message, secrets)),
      status: 'error',
      code: 'tool-not-declared',
    },
  ] as const satisfies readonly StreamEvent[];
}

/**
 * One answer without tools, read from the provider's own stream (`LanguageModelV3.doStream`): the prompt goes through
 * the SDK's own conversion, as `streamText` does it, so the provider sends the same request; there is no step loop,
 * retry, telemetry or re-streaming to pay for. Never throws; events as `streamAnswer` yields them.
 */
export async function* streamDirect(options: StreamAnswerOptions): AsyncGenerator<StreamEvent> {
  const secrets = options.secrets ?? [];
  const signal = options.abortSignal;
  try {
    const prompt = await convertToLanguageModelPrompt({
      prompt: { messages: options.messages },
      supportedUrls: await options.model.supportedUrls,
      download: refuseDownloads,
      abortSignal: signal,
    });
    const settings = prepareCallSettings({
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    });
    const { stream } = await options.model.doStream({
      ...settings,
      prompt,
      abortSignal: signal,
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    });
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case 'stream-start':
            reportWarnings(part.warnings, options.model);
            break;
          case 'text-delta':
            if (part.delta) yield { type: 'text-delta', delta: part.delta };
            break;
          case 'tool-call':
            yield* undeclaredCall(part, secrets);
            break;
          case 'error':
            yield { type: 'answer-failed', ...(signal.aborted ? ABORTED : mapProviderError(part.error, secrets)) };
            return;
          case 'finish':
            yield {
              type: 'answer-finished',
              finishReason: part.finishReason.unified,
              usage: {
                inputTokens: tokenCount(part.usage.inputTokens.total),
                outputTokens: tokenCount(part.usage.outputTokens.total),
              },
            };
            return;
          default:
            break;
        }
      }
    } finally {
      // An early return (a failure, the consumer stopping) must not leave the provider's response open.
      void reader.cancel().catch(() => undefined);
    }
    yield { type: 'answer-failed', ...(signal.aborted ? ABORTED : UNFINISHED) };
  } catch (error) {
    yield { type: 'answer-failed', ...(signal.aborted ? ABORTED : mapProviderError(error, secrets)) };
  }
}
