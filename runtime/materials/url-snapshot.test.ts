import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotUrl } from './url-snapshot.ts';

let server: Server;
let base: string;
const hits: string[] = [];

const article = `<!doctype html><html><head><title>Rivers of Europe</title><script>var tracking = 1;</script></head>
<body><nav>Home | About | Contact</nav><article><h1>Rivers of Europe</h1>
<p>The Danube flows through ten countries, more than any other river in the world. It rises in the Black Forest and ends in the Black Sea.</p>
<p>The Rhine carries more freight than any other European river, linking Switzerland to the North Sea through Germany and the Netherlands.</p>
</article><footer>Copyright</footer></body></html>`;

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    switch (request.url) {
      case '/article':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article);
        break;
      case '/plain':
        response.writeHead(200, { 'content-type': 'text/plain' }).end('Just   text.\n\n\n\nSecond paragraph.');
        break;
      case '/redirect':
        response.writeHead(302, { location: '/article' }).end();
        break;
      case '/to-private':
        response.writeHead(302, { location: 'http://10.0.0.1/secret' }).end();
        break;
      case '/to-file':
        response.writeHead(302, { location: 'file:///etc/passwd' }).end();
        break;
      case '/loop':
        response.writeHead(302, { location: '/loop' }).end();
        break;
      case '/huge':
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('x'.repeat(64 * 1024));
        break;
      case '/slow':
        response.writeHead(200, { 'content-type': 'text/html' });
        response.write('<html>');
        setTimeout(() => response.end('</html>'), 2000);
        break;
      case '/pdf':
        response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
        break;
      default:
        response.writeHead(404).end('missing');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const loopback = { allowLoopbackTargets: true };

describe('snapshotUrl', () => {
  it('extracts the readable text, title, final URL and fetch time', async () => {
    const snapshot = await snapshotUrl(`${base}/redirect`, { ...loopback, now: () => 1234 });
    expect(snapshot.url).toBe(`${base}/redirect`);
    expect(snapshot.finalUrl).toBe(`${base}/article`);
    expect(snapshot.fetchedAt).toBe(1234);
    expect(snapshot.title).toBe('Rivers of Europe');
    expect(snapshot.text).toContain('The Danube flows through ten countries');
    expect(snapshot.text).toContain('The Rhine carries more freight');
    expect(snapshot.text).not.toContain('tracking');
  });

  it('keeps plain text as text', async () => {
    const snapshot = await snapshotUrl(`${base}/plain`, loopback);
    expect(snapshot.text).toBe('Just text.\n\nSecond paragraph.');
  });

  it('refuses loopback targets unless the test option allows them', async () => {
    const before = hits.length;
    await expect(snapshotUrl(`${base}/article`)).rejects.toMatchObject({ code: 'url-refused' });
    await expect(
      snapshotUrl('http://localhost:1/x', { resolve: async () => [{ address: '127.0.0.1', family: 4 }] }),
    ).rejects.toMatchObject({ code: 'url-refused' });
    expect(hits.length).toBe(before);
  });

  it('refuses hosts whose DNS answers include any private address', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await expect(snapshotUrl('http://mixed.example/', { resolve })).rejects.toMatchObject({
      code: 'url-refused',
      message: expect.stringContaining('10.0.0.5'),
    });
    await expect(snapshotUrl('http://[::ffff:192.168.0.1]/')).rejects.toMatchObject({ code: 'url-refused' });
    await expect(snapshotUrl('http://169.254.169.254/latest/meta-data')).rejects.toMatchObject({ code: 'url-refused' });
  });

  it('refuses loopback and unspecified hosts in every spelling the URL parser accepts', async () => {
    const port = new URL(base).port;
    const before = hits.length;
    for (const host of [
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '[::ffff:7f00:1]',
      '[::ffff:127.0.0.1]',
      '[::1]',
      '0.0.0.0',
      '0',
      '[::]',
    ]) {
      await expect(snapshotUrl(`http://${host}:${port}/article`), host).rejects.toMatchObject({ code: 'url-refused' });
    }
    expect(hits.length).toBe(before);
  });

  it('connects to the address it checked, never to a second DNS answer (no rebinding between check and fetch)', async () => {
    const answers = ['127.0.0.1', '10.0.0.1'];
    let lookups = 0;
    const resolve = async () => [{ address: answers[Math.min(lookups++, 1)]!, family: 4 }];
    const snapshot = await snapshotUrl(`http://rebind.example:${new URL(base).port}/article`, { ...loopback, resolve });
    expect(snapshot.title).toBe('Rivers of Europe');
    expect(lookups).toBe(1);
  });

  it('checks every redirect hop with the same rules', async () => {
    await expect(snapshotUrl(`${base}/to-private`, loopback)).rejects.toMatchObject({ code: 'url-refused' });
    await expect(snapshotUrl(`${base}/to-file`, loopback)).rejects.toMatchObject({ code: 'url-refused' });
    await expect(snapshotUrl(`${base}/loop`, loopback)).rejects.toMatchObject({
      code: 'fetch-failed',
      message: expect.stringContaining('redirects'),
    });
  });

  it('refuses other schemes, credentials, oversized pages, slow pages and non-pages', async () => {
    await expect(snapshotUrl('file:///etc/passwd')).rejects.toMatchObject({ code: 'url-refused' });
    await expect(snapshotUrl('ftp://example.com/')).rejects.toMatchObject({ code: 'url-refused' });
    await expect(snapshotUrl(`http://user:pw@127.0.0.1/`, loopback)).rejects.toMatchObject({ code: 'url-refused' });
    await expect(snapshotUrl('not a url')).rejects.toMatchObject({ code: 'url-refused' });
    await expect(snapshotUrl(`${base}/huge`, { ...loopback, maxBytes: 1024 })).rejects.toMatchObject({
      code: 'fetch-too-large',
    });
    await expect(snapshotUrl(`${base}/slow`, { ...loopback, timeoutMs: 200 })).rejects.toMatchObject({
      code: 'fetch-timeout',
    });
    // A resolver that never answers is cut off by the same limit.
    await expect(
      snapshotUrl('http://stuck.example/', { timeoutMs: 200, resolve: () => new Promise(() => undefined) }),
    ).rejects.toMatchObject({ code: 'fetch-timeout' });
    await expect(snapshotUrl(`${base}/pdf`, loopback)).rejects.toMatchObject({ code: 'unsupported-media-type' });
    await expect(snapshotUrl(`${base}/missing`, loopback)).rejects.toMatchObject({
      code: 'fetch-failed',
      message: expect.stringContaining('404'),
    });
  });
});
