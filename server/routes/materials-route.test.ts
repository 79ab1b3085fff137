import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfMaterialResponseSchema, UrlMaterialResponseSchema } from '../../protocol/http-api.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let page: Server;
let pageUrl: string;

beforeAll(async () => {
  page = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<html><head><title>Local page</title></head><body><p>A paragraph of local text for the snapshot test, long enough to count as content.</p></body></html>',
      );
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/doc`;
});
afterAll(async () => {
  await new Promise((resolve) => page.close(resolve));
});

async function withServer(options: Parameters<typeof startTestServer>[0], run: (server: TestServer) => Promise<void>) {
  const server = await startTestServer(options);
  try {
    await run(server);
  } finally {
    await server.dispose();
  }
}

describe('materials routes', () => {
  it('extracts PDF text with page numbers from a raw application/pdf body', async () => {
    await withServer({}, async (server) => {
      const bytes = await readFile(new URL('../../tests/fixtures/two-pages.pdf', import.meta.url));
      const response = await server.api('/api/materials/pdf', {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: bytes,
      });
      const body = PdfMaterialResponseSchema.parse(await response.json());
      expect(body.pages.map((entry) => entry.number)).toEqual([1, 2]);
      expect(body.pages[0]!.text).toContain('Hello PDF page one');
      const notPdf = await server.api('/api/materials/pdf', {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: 'hello',
      });
      expect(notPdf.status).toBe(400);
      expect((await notPdf.json()).error.code).toBe('pdf-invalid');
      const wrongType = await server.api('/api/materials/pdf', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(wrongType.status).toBe(415);
    });
  });

  it('snapshots a page only when loopback targets are explicitly allowed', async () => {
    await withServer({ allowLoopbackTargets: true }, async (server) => {
      const response = await server.api('/api/materials/url', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: pageUrl }),
      });
      const body = UrlMaterialResponseSchema.parse(await response.json());
      expect(body).toMatchObject({ url: pageUrl, finalUrl: pageUrl, title: 'Local page' });
      expect(body.text).toContain('A paragraph of local text');
    });
    await withServer({}, async (server) => {
      const response = await server.api('/api/materials/url', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: pageUrl }),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('url-refused');
    });
  });
});
