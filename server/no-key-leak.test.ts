import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../protocol/dispatch-request.ts';
import { hashCanonical } from '../src/core/hashing.ts';
import { sampleCanvas } from '../tests/support/sample-canvas.ts';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/scripted-provider.ts';
import { startTestServer, type TestServer } from '../tests/support/test-server.ts';

const KEY_FROM_ENV = 'sk-env-LEAKCHECK-aaaaaaaaaaaaaaaa';
const KEY_FROM_DOTENV = 'sk-ant-dotenv-LEAKCHECK-bbbbbbbbbbbb';
const KEY_FROM_APP = 'sk-app-LEAKCHECK-cccccccccccccccc';
const KEYS = [KEY_FROM_ENV, KEY_FROM_DOTENV, KEY_FROM_APP];

let provider: ScriptedProvider;
let server: TestServer;
let scratch: string;
const captured: string[] = [];

async function call(path: string, init: RequestInit = {}): Promise<string> {
  const response = await server.api(path, init);
  const text = await response.text();
  captured.push(`${path} ${response.status} ${JSON.stringify([...response.headers])} ${text}`);
  return text;
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(path)));
    else files.push(path);
  }
  return files;
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  scratch = await mkdtemp(join(tmpdir(), 'weft-leak-'));
  const dotenvPath = join(scratch, '.env');
  await writeFile(dotenvPath, `ANTHROPIC_API_KEY=${KEY_FROM_DOTENV}\n`);
  server = await startTestServer({ env: { OPENAI_API_KEY: KEY_FROM_ENV }, dotenvPath });
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('keys never leave secrets.json', () => {
  it('finds no key in any response, event, record, backup or log line of a full session', async () => {
    const base = `${provider.url}/v1`;
    // Point every provider at the scripted one (only loopback traffic); keys come from env, .env and the app.
    await call(
      '/api/settings',
      json('PUT', {
        providers: [
          { id: 'openai', kind: 'openai', baseUrl: base },
          { id: 'anthropic', kind: 'anthropic', baseUrl: base },
          { id: 'local', kind: 'openai-compatible', baseUrl: base, apiKey: KEY_FROM_APP, models: ['m'] },
        ],
        judgeModelId: 'local/m',
        backupFolder: join(scratch, 'backup'),
      }),
    );
    await call('/api/settings');
    await call('/api/models');

    const request = (model: string): CanonicalRequest => ({
      model,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      tools: {},
    });
    // The environment's keys go only to their official hosts: entries pointed at loopback have no key, so these
    // two are refused before any request leaves (issue 27.2).
    for (const model of ['openai/gpt-4o', 'anthropic/claude-haiku-4-5']) {
      await call(
        '/api/generate',
        json('POST', { request: request(model), requestHash: hashCanonical(request(model)), images: [] }),
      );
    }
    expect(provider.requests).toHaveLength(0);
    for (const model of ['local/m', 'offline/receipt']) {
      if (model !== 'offline/receipt') provider.script({ text: `answer from ${model}` });
      await call(
        '/api/generate',
        json('POST', { request: request(model), requestHash: hashCanonical(request(model)), images: [] }),
      );
    }
    // Providers that echo the key back in their error text, as real ones do.
    for (const [model, status] of [
      ['local/m', 401],
      ['local/m', 403],
      ['local/m', 500],
    ] as const) {
      provider.script({
        status,
        errorMessage: `Incorrect API key provided: ${KEY_FROM_APP} / ${KEY_FROM_ENV} / ${KEY_FROM_DOTENV}`,
      });
      const text = await call(
        '/api/generate',
        json('POST', { request: request(model), requestHash: hashCanonical(request(model)), images: [] }),
      );
      expect(text).toContain('answer-failed');
      expect(text).toContain('[redacted]');
    }
    provider.script({ text: '{"yes": 1, "no": 1}' });
    await call('/api/decide', json('POST', { kind: 'memory', prompt: 'p', options: ['yes', 'no'] }));
    provider.script({ status: 401, errorMessage: `bad key ${KEY_FROM_APP}` });
    await server.context.judge.decide({ kind: 'memory', prompt: 'q', options: ['yes', 'no'] }).catch(() => undefined);
    await call('/api/canvases/leak', json('PUT', sampleCanvas('leak', 'Leak check')));
    await call('/api/canvases');
    await call('/api/canvases/leak');
    await call('/api/canvases/import', json('POST', sampleCanvas('leak')));
    await call('/api/health');
    await server.context.backup.flush();

    // The provider really received the app's key (so the scan below is meaningful), and never the environment's:
    // those go only to their official hosts. Their values still came back in the echoed errors above.
    const sentHeaders = JSON.stringify(provider.requests.map((entry) => entry.headers));
    expect(sentHeaders).toContain(KEY_FROM_APP);
    expect(sentHeaders).not.toContain(KEY_FROM_ENV);
    expect(sentHeaders).not.toContain(KEY_FROM_DOTENV);

    const haystacks = [...captured, ...server.logger.lines];
    const files = [...(await filesUnder(server.home)), ...(await filesUnder(join(scratch, 'backup')))];
    for (const file of files)
      if (!file.endsWith('secrets.json')) haystacks.push(`${file}: ${await readFile(file, 'utf8')}`);
    expect(files.some((file) => file.endsWith('.weft.json'))).toBe(true);
    expect(server.logger.lines.length).toBeGreaterThan(5);
    for (const text of haystacks)
      for (const key of KEYS) expect(text.includes(key), `key found in: ${text.slice(0, 200)}`).toBe(false);

    const secretsFile = join(server.home, 'secrets.json');
    expect(await readFile(secretsFile, 'utf8')).toContain(KEY_FROM_APP);
    expect((await stat(secretsFile)).mode & 0o777).toBe(0o600);
  });
});
