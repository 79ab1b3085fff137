import { WeftError } from '../../../protocol/index.ts';

/** A coded error from the local server or the network, shown to the person as `code: message`; `status` 0: no answer. */
export class ApiClientError extends WeftError {
  declare readonly status: number;

  constructor(code: string, message: string, status = 0) {
    super(code, message, status);
    this.name = 'ApiClientError';
  }
}

/** Turns any thrown value into a `{ code, message }` pair for toasts and banners. */
export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof ApiClientError) return { code: error.code, message: error.message };
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return {
      code: (error as { code: string }).code,
      message: describeMessage((error as { message?: unknown }).message),
    };
  }
  if (error instanceof DOMException && error.name === 'AbortError') return { code: 'aborted', message: 'Stopped.' };
  if (error instanceof Error) return { code: 'unexpected', message: error.message };
  return { code: 'unexpected', message: String(error) };
}

function describeMessage(message: unknown): string {
  return typeof message === 'string' ? message : message === undefined ? '' : JSON.stringify(message);
}
