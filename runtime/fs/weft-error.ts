/** An error with a stable code the server maps to `{ error: { code, message } }`. */
export class WeftError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(code: string, message: string, status = 400, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WeftError';
    this.code = code;
    this.status = status;
  }
}

export function isWeftError(error: unknown): error is WeftError {
  return error instanceof WeftError;
}
