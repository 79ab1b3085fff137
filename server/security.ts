import { timingSafeEqual } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { RequestHandler } from 'express';
import { sendError } from './api-error.ts';

export const TOKEN_COOKIE = 'weft_token';

function sameToken(candidate: string | undefined, token: string): boolean {
  if (!candidate) return false;
  const left = Buffer.from(candidate);
  const right = Buffer.from(token);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The token cookie's value; `cookie` leaves a malformed escape (`%E0%A4%A`) as it is, so it simply fails to match. */
function tokenCookie(header: string | undefined): string | undefined {
  return header ? parseCookie(header)[TOKEN_COOKIE] : undefined;
}

export interface SecurityOptions {
  token: string;
  /** The port actually bound; read late because port 0 is resolved at listen time. */
  port: () => number;
}

/** Host must be our loopback name and port: a rebinding DNS name never gets an answer (421). */
export function hostGuard(options: SecurityOptions): RequestHandler {
  return (request, response, next) => {
    const host = request.headers.host;
    const port = options.port();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      sendError(response, 421, 'bad-host', 'This server only answers to 127.0.0.1 or localhost on its own port.');
      return;
    }
    next();
  };
}

/** Only our own origin may call us from a browser; other sites get 403 even with a cookie. */
export function originGuard(options: SecurityOptions): RequestHandler {
  return (request, response, next) => {
    const origin = request.headers.origin;
    const port = options.port();
    if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
      sendError(response, 403, 'bad-origin', 'Requests from other origins are refused.');
      return;
    }
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      sendError(response, 403, 'bad-origin', 'Requests from other sites are refused.');
      return;
    }
    next();
  };
}

/** Every `/api/*` call carries the per-launch token as a cookie or a Bearer header. */
export function tokenGuard(options: SecurityOptions): RequestHandler {
  return (request, response, next) => {
    const authorization = request.headers.authorization;
    const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined;
    if (sameToken(bearer, options.token)) {
      next();
      return;
    }
    if (sameToken(tokenCookie(request.headers.cookie), options.token)) {
      // A cookie rides along on any request the browser makes; a change must also prove it comes from
      // our page (originGuard already refused a foreign Origin; here one of the two must be present).
      const safe = request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS';
      if (safe || request.headers.origin !== undefined || request.headers['sec-fetch-site'] === 'same-origin') {
        next();
        return;
      }
      sendError(response, 403, 'bad-origin', "A change sent with the cookie must carry this page's Origin.");
      return;
    }
    sendError(
      response,
      401,
      'unauthorized',
      'Open Weft through the link it printed at start (it carries the access token).',
    );
  };
}

/** The printed link's `?token=` becomes an HttpOnly SameSite=Strict cookie, then the token leaves the URL. */
export function tokenHandoff(options: SecurityOptions): RequestHandler {
  return (request, response, next) => {
    const token = typeof request.query.token === 'string' ? request.query.token : undefined;
    if (request.method !== 'GET' || token === undefined) {
      next();
      return;
    }
    if (!sameToken(token, options.token)) {
      sendError(
        response,
        401,
        'unauthorized',
        'That access link is out of date; use the one Weft printed at this start.',
      );
      return;
    }
    response.cookie(TOKEN_COOKIE, options.token, { httpOnly: true, sameSite: 'strict', path: '/' });
    const url = new URL(request.originalUrl, 'http://placeholder');
    url.searchParams.delete('token');
    // `/.//evil.example` normalises to the path `//evil.example`, which a browser reads as another host.
    response.redirect(302, '/' + url.pathname.replace(/^\/+/, '') + url.search);
  };
}
