/**
 * The one error base: every error class in the repository extends it (`scripts/error-base.test.ts` keeps that
 * true). `code` is stable and read by machines (the wire's `{ error: { code, message } }`, the CLI's one line, a
 * tool's outcome); `message` is for people; `cause` is the error underneath, when there is one. `status` is the
 * HTTP status the server answers with when the error reaches a route; null marks an error that is not a refusal
 * meant for a client (a core refusal returned as a value, a parse step's own signal), which the server answers as
 * an internal error. It lives in protocol/ because that is the one layer every other may import.
 */
export class WeftError extends Error {
  readonly code: string;
  readonly status: number | null;

  constructor(code: string, message: string, status: number | null = 400, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WeftError';
    this.code = code;
    this.status = status;
  }
}

export function isWeftError(error: unknown): error is WeftError {
  return error instanceof WeftError;
}
