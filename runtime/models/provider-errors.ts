import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import type { GenerateFailureCode } from '../../protocol/index.ts';
import { isWeftError } from '../../protocol/index.ts';

export interface ProviderFailure {
  code: GenerateFailureCode;
  message: string;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const CONTEXT_WORDING =
  /context[ _-]?(length|window)|too many tokens|maximum.*tokens|prompt is too long|too long|exceeds.*(context|limit)/i;

/** Replace every known secret in a text, so a provider that echoes a key cannot leak it. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result;
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown; errno?: unknown };
    if (typeof candidate.code === 'string') codes.push(candidate.code);
    current = candidate.cause;
  }
  return codes;
}

function isAbort(error: unknown): boolean {
  const candidate = error as { name?: unknown } | null;
  return candidate?.name === 'AbortError' || candidate?.name === 'ResponseAborted';
}

function shortProviderMessage(error: APICallError): string {
  const text = error.message || error.responseBody || '';
  return text.length > 300 ? text.slice(0, 299) + '…' : text;
}

/** Map any error from a provider call to a stable code and a clear message (C11). */
export function mapProviderError(error: unknown, secrets: readonly string[] = []): ProviderFailure {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const failure = classify(cause);
  return { code: failure.code, message: redactSecrets(failure.message, secrets) };
}

function classify(error: unknown): ProviderFailure {
  if (isAbort(error)) return { code: 'aborted', message: 'The request was stopped before the answer finished.' };
  if (isWeftError(error)) {
    const code = error.code === 'bad-key' || error.code === 'model-missing' ? error.code : 'provider-error';
    return { code, message: error.message };
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = shortProviderMessage(error);
    if (status === 401 || status === 403)
      return {
        code: 'bad-key',
        message: `The provider refused the API key (HTTP ${status}). Check the key in Settings. ${detail}`.trim(),
      };
    if (status === 429)
      return {
        code: 'rate-limit',
        message: `The provider is rate-limiting requests (HTTP 429). Wait a moment and try again. ${detail}`.trim(),
      };
    if (status === 404)
      return { code: 'model-missing', message: `The provider does not know this model (HTTP 404). ${detail}`.trim() };
    if (
      (status === 400 || status === 413 || status === 422) &&
      CONTEXT_WORDING.test(`${error.message} ${error.responseBody ?? ''}`)
    ) {
      return {
        code: 'context-too-long',
        message:
          `The request is longer than the model's context window. Leave out some context and try again. ${detail}`.trim(),
      };
    }
    if (status === undefined && errorCodes(error).some((code) => NETWORK_CODES.has(code))) {
      return {
        code: 'network',
        message: `Could not reach the provider (${errorCodes(error).find((code) => NETWORK_CODES.has(code))}).`,
      };
    }
    return {
      code: 'provider-error',
      message: `The provider answered with an error${status ? ` (HTTP ${status})` : ''}. ${detail}`.trim(),
    };
  }
  const codes = errorCodes(error);
  const network = codes.find((code) => NETWORK_CODES.has(code));
  if (network) return { code: 'network', message: `Could not reach the provider (${network}).` };
  if (error instanceof TypeError && /fetch failed|network/i.test(error.message))
    return { code: 'network', message: 'Could not reach the provider (network error).' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'provider-error', message: `The model call failed: ${message.slice(0, 300)}` };
}
