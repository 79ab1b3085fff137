import type { Request, RequestHandler } from 'express';
import { WeftError } from '../protocol/index.ts';

function tooLarge(limit: number): WeftError {
  return new WeftError('body-too-large', `The request body is larger than this route accepts (${limit} bytes).`, 413);
}

/**
 * Read a request body up to `limit` bytes. A declared Content-Length over the limit is refused
 * before a byte is read; a body that grows past it is cut off at once (never drained).
 */
function readLimited(request: Request, limit: number): Promise<Buffer> {
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      if (error) {
        request.pause();
        reject(error);
      } else resolve(body!);
    };
    const onData = (part: Buffer) => {
      size += part.length;
      if (size > limit) finish(tooLarge(limit));
      else parts.push(part);
    };
    request.on('data', onData);
    request.once('end', () => finish(null, Buffer.concat(parts)));
    request.once('error', () =>
      finish(new WeftError('bad-request', 'The request body was not received completely.', 400)),
    );
    request.once('aborted', () =>
      finish(new WeftError('bad-request', 'The request body was not received completely.', 400)),
    );
  });
}

function mediaTypeOf(request: Request): string {
  return String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

/** JSON bodies (application/json) up to `limit`; other media types leave `body` undefined. */
export function jsonBody(limit: number): RequestHandler {
  return async (request, _response, next) => {
    const type = mediaTypeOf(request);
    if (type !== 'application/json' && !type.endsWith('+json')) {
      if (request.headers['content-length'] !== undefined && Number(request.headers['content-length']) > limit)
        return next(tooLarge(limit));
      request.body = undefined;
      return next();
    }
    try {
      const bytes = await readLimited(request, limit);
      if (bytes.length === 0) {
        request.body = undefined;
        return next();
      }
      try {
        request.body = JSON.parse(bytes.toString('utf8')) as unknown;
      } catch {
        return next(new WeftError('invalid-body', 'The request body is not valid JSON.', 400));
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** Raw bodies of the given media types up to `limit`, as a Buffer; others are refused with 415. */
export function rawBody(limit: number, mediaTypes: readonly string[]): RequestHandler {
  return async (request, _response, next) => {
    if (!mediaTypes.includes(mediaTypeOf(request))) {
      return next(new WeftError('unsupported-media-type', `Send the body as ${mediaTypes.join(' or ')}.`, 415));
    }
    try {
      request.body = await readLimited(request, limit);
      next();
    } catch (error) {
      next(error);
    }
  };
}
