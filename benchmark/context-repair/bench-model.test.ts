import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBenchModel } from './bench-model.ts';
import { conditionContext } from './conditions.ts';
import { generateCases } from './generate-cases.ts';

// A stand-in for a local Ollama on 127.0.0.1 speaking its native /api/chat (NDJSON), recording what it is sent.
let server: Server;
let home: string;
const received: { options?: Record<string, unknown>; messages?: unknown[] }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.url === '/api/tags') return response.end(JSON.stringify({ models: [{ name: 'tiny' }] }));
      received.push(JSON.parse(body) as (typeof received)[number]);
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const at = new Date(0).toISOString();
      response.write(
        `${JSON.stringify({ model: 'tiny', created_at: at, message: { role: 'assistant', content: '42' }, done: false })}\n`,
      );
      response.end(
        `${JSON.stringify({ model: 'tiny', created_at: at, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 9, eval_count: 1 })}\n`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  home = await mkdtemp(join(tmpdir(), 'bench-model-'));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeFile(
    join(home, 'settings.json'),
    JSON.stringify({
      version: 1,
      providers: [{ id: 'ollama', kind: 'ollama', baseUrl, enabled: true, models: ['tiny'] }],
      judgeModelId: null,
      backupFolder: null,
      defaultModelId: null,
    }),
  );
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(home, { recursive: true, force: true });
});

describe('benchmark models', () => {
  it('call a configured Ollama natively with temperature 0, the fixed seed and an explicit num_ctx', async () => {
    const model = await openBenchModel('ollama/tiny', { WEFT_HOME: home });
    const request = conditionContext(generateCases({ perCell: 1 }).cases[0]!, 'polluted', 'ollama/tiny').built.request;
    const settings = model.settingsFor(request);
    expect(settings).toMatchObject({ temperature: 0, seed: 7 });
    expect(settings.numCtx).toBeGreaterThanOrEqual(4096);
    const answer = await model.ask(request, settings);
    await model.close();
    expect(answer).toMatchObject({ ok: true, text: '42' });
    expect(received.at(-1)!.options).toMatchObject({ num_ctx: settings.numCtx, temperature: 0, seed: 7 });
    expect(received.at(-1)!.messages).toHaveLength(request.messages.length);
  });

  it('refuse an unknown scripted model and an unconfigured provider with a code', async () => {
    await expect(openBenchModel('scripted/oracle', { WEFT_HOME: home })).rejects.toMatchObject({ code: 'bad-model' });
    await expect(openBenchModel('nowhere/model', { WEFT_HOME: home })).rejects.toMatchObject({ code: 'model-missing' });
  });
});
