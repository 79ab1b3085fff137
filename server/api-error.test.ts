import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WeftError } from '../protocol/index.ts';
import { GraphError } from '../src/core/index.ts';
import { IndexError } from '../runtime/index/index.ts';
import { errorHandler } from './api-error.ts';
import type { Logger } from './logger.ts';

/** The one error base on the wire: a refusal keeps its status and code; an error not meant for a client is a 500. */
describe('errorHandler', () => {
  const logged: string[] = [];
  const logger: Logger = { info: () => undefined, warn: () => undefined, error: (message) => logged.push(message) };
  let base = '';
  let close: () => void = () => undefined;

  beforeAll(async () => {
    const app = express();
    app.get('/refused', () => {
      throw new WeftError('not-found', 'No such canvas.', 404);
    });
    app.get('/core', () => {
      throw new GraphError('cycle', 'The wire would close a cycle.');
    });
    app.get('/index', () => {
      throw new IndexError('index-corrupt', 'The index file is damaged.', { cause: new Error('disk') });
    });
    app.use(errorHandler(logger));
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('answers a refusal with its own status, code and message', async () => {
    const response = await fetch(`${base}/refused`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not-found', message: 'No such canvas.' } });
  });

  it('answers a core or index error that escaped a route as internal, never its words', async () => {
    for (const path of ['/core', '/index']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: { code: 'internal', message: 'Something went wrong inside Weft; nothing was changed.' },
      });
    }
    expect(logged).toEqual(['unhandled error', 'unhandled error']);
  });
});
