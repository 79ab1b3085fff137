import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../tests/support/raw-request.ts';
import { sampleCanvas } from '../tests/support/sample-canvas.ts';
import { startTestServer, type TestServer } from '../tests/support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

const host = () => `127.0.0.1:${server.port}`;
const bearer = () => ({ authorization: `Bearer ${server.token}` });

describe('security guards', () => {
  it('answers health with the token and refuses without it', async () => {
    const refused = await rawRequest(server.port, { path: '/api/health', headers: { host: host() } });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    const wrong = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    const ok = await rawRequest(server.port, { path: '/api/health', headers: { host: host(), ...bearer() } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ ok: true, version: expect.any(String) });
  });

  it('requires the token on every API route', async () => {
    for (const [method, path] of [
      ['GET', '/api/models'],
      ['GET', '/api/settings'],
      ['GET', '/api/canvases'],
      ['PUT', '/api/canvases/a'],
      ['POST', '/api/generate'],
      ['POST', '/api/generate-set'],
      ['POST', '/api/decide'],
      ['GET', '/api/stream'],
      ['POST', '/api/materials/url'],
    ] as const) {
      const response = await rawRequest(server.port, {
        method,
        path,
        headers: { host: host(), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it('refuses a foreign Host (DNS rebinding) with 421 even with the token', async () => {
    for (const badHost of ['evil.example:' + server.port, '127.0.0.1:1', 'localhost', '127.0.0.1']) {
      const response = await rawRequest(server.port, { path: '/api/health', headers: { host: badHost, ...bearer() } });
      expect(response.status, badHost).toBe(421);
      expect(JSON.parse(response.body).error.code).toBe('bad-host');
    }
    const localhost = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: `localhost:${server.port}`, ...bearer() },
    });
    expect(localhost.status).toBe(200);
  });

  it('refuses a foreign Origin with 403 and admits its own', async () => {
    const foreign = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), origin: 'http://evil.example', ...bearer() },
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.code).toBe('bad-origin');
    const otherPort = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), origin: 'http://127.0.0.1:1', ...bearer() },
    });
    expect(otherPort.status).toBe(403);
    const crossSite = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), 'sec-fetch-site': 'cross-site', ...bearer() },
    });
    expect(crossSite.status).toBe(403);
    const opaque = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), origin: 'null', ...bearer() },
    });
    expect(opaque.status).toBe(403);
    const sameSite = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), 'sec-fetch-site': 'same-site', ...bearer() },
    });
    expect(sameSite.status).toBe(403);
    const own = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), origin: server.origin, ...bearer() },
    });
    expect(own.status).toBe(200);
  });

  it('turns the printed link into an HttpOnly SameSite=Strict cookie and drops the token from the URL', async () => {
    const landing = await rawRequest(server.port, { path: `/?token=${server.token}`, headers: { host: host() } });
    expect(landing.status).toBe(302);
    expect(landing.headers.location).toBe('/');
    const cookie = String(landing.headers['set-cookie']);
    expect(cookie).toContain(`weft_token=${server.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const withCookie = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), cookie: `weft_token=${server.token}` },
    });
    expect(withCookie.status).toBe(200);
    const staleLink = await rawRequest(server.port, { path: '/?token=stale', headers: { host: host() } });
    expect(staleLink.status).toBe(401);
    const cookieChange = (headers: Record<string, string>) =>
      rawRequest(server.port, {
        method: 'POST',
        path: '/api/decide',
        headers: { host: host(), cookie: `weft_token=${server.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ kind: 'stale', prompt: 'p', options: ['a', 'b'] }),
      });
    // A change that carries only the cookie and neither Origin nor Sec-Fetch-Site is not known to come from our page.
    expect((await cookieChange({})).status).toBe(403);
    expect((await cookieChange({ origin: server.origin })).status).toBe(200);
    expect((await cookieChange({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    const malformed = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), cookie: 'weft_token=%E0%A4%A' },
    });
    expect(malformed.status).toBe(401);
    // The browser sends the page's other cookies too, with or without the space after `;`.
    for (const header of [
      `theme=dark; weft_token=${server.token}; lang=en`,
      `theme=dark;weft_token=${server.token}`,
      `weft_token_old=stale; weft_token=${server.token}`,
    ]) {
      const response = await rawRequest(server.port, {
        path: '/api/health',
        headers: { host: host(), cookie: header },
      });
      expect(response.status, header).toBe(200);
    }
    const otherNameOnly = await rawRequest(server.port, {
      path: '/api/health',
      headers: { host: host(), cookie: `xweft_token=${server.token}` },
    });
    expect(otherNameOnly.status).toBe(401);
    // The redirect stays on this server even when the path normalises to `//host`.
    const offsite = await rawRequest(server.port, {
      path: `/.//evil.example/x?token=${server.token}&keep=1`,
      headers: { host: host() },
    });
    expect(offsite.status).toBe(302);
    expect(offsite.headers.location).toBe('/evil.example/x?keep=1');
  });

  it('binds to loopback and writes server.json (0600) in a 0700 home', async () => {
    const info = JSON.parse(await readFile(join(server.home, 'server.json'), 'utf8'));
    expect(info).toMatchObject({ port: server.port, token: server.token, pid: process.pid });
    expect((await stat(join(server.home, 'server.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(server.home)).mode & 0o777).toBe(0o700);
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
  });
});

describe('bad bodies are refused with codes and change nothing', () => {
  it('refuses malformed JSON, schema mismatches and wrong content types', async () => {
    const malformed = await rawRequest(server.port, {
      method: 'PUT',
      path: '/api/canvases/alpha',
      headers: { host: host(), ...bearer(), 'content-type': 'application/json' },
      body: '{"format":',
    });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).error.code).toBe('invalid-body');
    expect(malformed.body).not.toMatch(/at .*\.ts|node_modules/);

    const wrongShape = await server.api('/api/canvases/alpha', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'weft.canvas', version: 1 }),
    });
    expect(wrongShape.status).toBe(400);
    const wrongBody = await wrongShape.json();
    expect(wrongBody.error.code).toBe('invalid-canvas');
    expect(wrongBody.error.message).toMatch(/canvas/);

    const decide = await server.api('/api/decide', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'stale', prompt: 'x', options: [] }),
    });
    expect(decide.status).toBe(400);
    expect((await decide.json()).error.code).toBe('invalid-body');

    const notJson = await server.api('/api/decide', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(notJson.status).toBe(400);
    expect(await readdir(join(server.home, 'canvases'))).toEqual([]);
  });

  it('refuses an oversized body from its Content-Length before reading it', async () => {
    const put = await server.api('/api/canvases/keep', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sampleCanvas('keep')),
    });
    expect(put.status).toBe(200);
    const before = await readFile(join(server.home, 'canvases', 'keep.weft.json'), 'utf8');
    // Declare 200 MB but send only a few bytes: the server must answer from the header alone.
    const response = await rawRequest(server.port, {
      method: 'PUT',
      path: '/api/canvases/keep',
      headers: {
        host: host(),
        ...bearer(),
        'content-type': 'application/json',
        'content-length': String(200 * 1024 * 1024),
      },
      body: '{}',
    }).catch((error: unknown) => ({ status: -1, body: String(error), headers: {} }));
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).error.code).toBe('body-too-large');
    const big = await server.api('/api/decide', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'x', prompt: 'p'.repeat(1_100_000), options: ['a'] }),
    });
    expect(big.status).toBe(413);
    expect(await readFile(join(server.home, 'canvases', 'keep.weft.json'), 'utf8')).toBe(before);
  });

  it('cuts off a chunked body (no Content-Length) as soon as it passes the limit', async () => {
    const { request } = await import('node:http');
    let sent = 0;
    let sentWhenAnswered = -1;
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/api/decide',
          headers: { host: host(), ...bearer(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (response) => {
          sentWhenAnswered = sent;
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      outgoing.on('error', () => undefined);
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => {
        // Keep sending up to 8 MB; the server must answer long before that.
        while (sent < 128 && outgoing.write(chunk)) sent++;
        if (sent < 128) outgoing.once('drain', pump);
        else outgoing.end();
      };
      outgoing.write('{"kind":"x","prompt":"');
      pump();
      setTimeout(() => reject(new Error('no answer')), 10_000);
    });
    expect(status).toBe(413);
    expect(sentWhenAnswered).toBeLessThan(128);
  });

  it('refuses path-traversal and malformed canvas ids', async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '..', 'a.b', 'a%00b', 'x'.repeat(101), '%2E%2E']) {
      const response = await server.api(`/api/canvases/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sampleCanvas('a')),
      });
      expect([400, 404], id).toContain(response.status);
      const body = await response.json();
      expect(['invalid-id', 'not-found'], id).toContain(body.error.code);
      const read = await server.api(`/api/canvases/${id}`);
      expect([400, 404]).toContain(read.status);
    }
    const traversal = await rawRequest(server.port, {
      method: 'GET',
      path: '/api/canvases/..%2F..%2Fserver',
      headers: { host: host(), ...bearer() },
    });
    expect(traversal.status).toBe(400);
    expect(JSON.parse(traversal.body).error.code).toBe('invalid-id');
    expect((await readdir(join(server.home, 'canvases'))).sort()).toEqual([
      'anchors.jsonl',
      'keep.head.json',
      'keep.weft.json',
    ]);
  });

  it('answers unknown API routes with a coded 404', async () => {
    const response = await server.api('/api/nothing-here');
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not-found');
  });
});

describe('extension routes', () => {
  it('mounts extra /api routes behind the same guards', async () => {
    const { default: express } = await import('express');
    const extended = await startTestServer({
      apiRoutes: [
        (context) => {
          const router = express.Router();
          router.get('/extra/ping', (_request, response) => {
            response.json({ pong: true, version: context.version });
          });
          return router;
        },
      ],
    });
    try {
      expect(await (await extended.api('/api/extra/ping')).json()).toEqual({ pong: true, version: expect.any(String) });
      expect((await fetch(`${extended.origin}/api/extra/ping`)).status).toBe(401);
    } finally {
      await extended.dispose();
    }
  });
});
