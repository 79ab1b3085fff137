import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from './logger.ts';
import { isWeftError } from '../protocol/index.ts';

export function sendError(response: Response, status: number, code: string, message: string): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  // A refused request may leave its body unread; closing the connection keeps the next request
  // on a kept-alive socket from reading those leftover bytes (and ends an oversized upload at once).
  if (!response.req.complete) response.set('Connection', 'close');
  response.status(status).json({ error: { code, message } });
}

/** Body-parser and thrown errors → `{ error: { code, message } }`; never a stack trace. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    // A refusal meant for the client carries its status; any other error (status null) is an internal one.
    if (isWeftError(error) && error.status !== null) {
      sendError(response, error.status, error.code, error.message);
      return;
    }
    const parserError = error as { type?: string; status?: number; limit?: number };
    switch (parserError.type) {
      case 'entity.too.large':
        sendError(
          response,
          413,
          'body-too-large',
          `The request body is larger than this route accepts (${parserError.limit} bytes).`,
        );
        return;
      case 'entity.parse.failed':
        sendError(response, 400, 'invalid-body', 'The request body is not valid JSON.');
        return;
      case 'charset.unsupported':
      case 'encoding.unsupported':
        sendError(response, 415, 'unsupported-media-type', 'The request body encoding is not supported.');
        return;
      case 'request.aborted':
        sendError(response, 400, 'bad-request', 'The request body was not received completely.');
        return;
    }
    if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      sendError(response, parserError.status, 'bad-request', 'The request could not be read.');
      return;
    }
    logger.error('unhandled error', { route: request.path, name: error instanceof Error ? error.name : typeof error });
    sendError(response, 500, 'internal', 'Something went wrong inside Weft; nothing was changed.');
  };
}
