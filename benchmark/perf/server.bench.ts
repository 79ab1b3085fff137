/**
 * `npm run bench:server`: the local server's cost on the streaming path, measured in one run
 * (`WEFT_BENCH_QUICK=1`: 5 rounds and a 500-token answer, seconds).
 *
 * The scripted provider and the Weft server each run in their own process (as in real use, where
 * the browser, the server and the provider are separate), and this process is the client.
 * - first_token_overhead_ms: time to the first text-delta through the Weft server minus the time to
 *   the first text chunk when the same AI SDK client (openai-compatible) calls the scripted provider
 *   directly; the two alternate in one run and the figure is the median of the per-pair differences.
 * - stream_tokens_per_s: text-deltas per second received through the server for a long answer
 *   (one token per provider chunk, no delays); stream_tokens_per_s_direct is the same answer read by
 *   the AI SDK client straight from the provider, for reference.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import type { CanonicalRequest } from '../../protocol/index.ts';
import { hashCanonical } from '../../src/core/index.ts';
import { nodeHashPort } from '../../runtime/hash/index.ts';
import { announceQuickMode, scale } from './quick-mode.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? scale(100, 5));
const STREAM_TOKENS = Number(process.env.BENCH_TOKENS ?? scale(20_000, 500));
const WARM_UP_ROUNDS = scale(15, 2);
const CHILD = fileURLToPath(new URL('./server-bench-child.ts', import.meta.url));

function startChild(...args: string[]): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench child ${args[0]} exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve({ child, info: JSON.parse(line) as Record<string, string> }),
    );
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Read SSE events from a fetch body, calling `onEvent` with each parsed JSON event. */
async function readEvents(response: Response, onEvent: (event: { type: string }) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      if (block.startsWith('data: ')) onEvent(JSON.parse(block.slice(6)) as { type: string });
    }
  }
}

async function main(): Promise<void> {
  announceQuickMode();
  // Both children start at once (each loads tsx and the AI SDK: seconds on a busy machine).
  const started = await Promise.allSettled([startChild('provider', String(STREAM_TOKENS)), startChild('server')]);
  const [provider, server] = started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : null));
  if (!provider || !server) {
    for (const child of [provider, server]) child?.child.kill();
    throw (started.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason;
  }
  if (process.env.BENCH_PROFILE) console.error(`children started in ${performance.now().toFixed(0)} ms`);
  try {
    const { origin, token, home } = server.info as { origin: string; token: string; home: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await fetch(`${origin}/api/settings`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        providers: [
          { id: 'bench', kind: 'openai-compatible', baseUrl: `${provider.info.url}/v1`, models: ['scripted', 'long'] },
        ],
      }),
    });
    const direct = createOpenAICompatible({
      name: 'bench',
      baseURL: `${provider.info.url}/v1`,
      includeUsage: true,
    }).chatModel('scripted');
    const bodyFor = (model: string) => {
      const request: CanonicalRequest = {
        model,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
        tools: {},
      };
      return JSON.stringify({ request, requestHash: hashCanonical(request, nodeHashPort), images: [] });
    };
    const shortBody = bodyFor('bench/scripted');

    const throughServer = async (): Promise<number> => {
      const started = performance.now();
      const response = await fetch(`${origin}/api/generate`, { method: 'POST', headers, body: shortBody });
      let first = 0;
      await readEvents(response, (event) => {
        if (event.type === 'text-delta' && !first) first = performance.now() - started;
      });
      return first;
    };
    const directCall = async (): Promise<number> => {
      const started = performance.now();
      const result = streamText({
        model: direct,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
        maxRetries: 0,
      });
      let first = 0;
      for await (const chunk of result.textStream) if (chunk && !first) first = performance.now() - started;
      return first;
    };

    // Warm both paths (JIT, connection pools), then alternate so drift hits both equally.
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      await throughServer();
      await directCall();
    }
    const serverTimes: number[] = [];
    const directTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      serverTimes.push(await throughServer());
      directTimes.push(await directCall());
    }

    const started = performance.now();
    let deltas = 0;
    const response = await fetch(`${origin}/api/generate`, { method: 'POST', headers, body: bodyFor('bench/long') });
    await readEvents(response, (event) => {
      if (event.type === 'text-delta') deltas++;
    });
    const seconds = (performance.now() - started) / 1000;

    // Reference: the same long answer read by the AI SDK client straight from the provider.
    const directLong = createOpenAICompatible({
      name: 'bench',
      baseURL: `${provider.info.url}/v1`,
      includeUsage: true,
    }).chatModel('long');
    const directStarted = performance.now();
    let directDeltas = 0;
    const directResult = streamText({
      model: directLong,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
      maxRetries: 0,
    });
    for await (const chunk of directResult.textStream) if (chunk) directDeltas++;
    const directSeconds = (performance.now() - directStarted) / 1000;

    console.log(`first_token_server_median_ms: ${median(serverTimes).toFixed(2)} ms`);
    console.log(`first_token_direct_median_ms: ${median(directTimes).toFixed(2)} ms`);
    // Rounds alternate server and direct calls, so each pair shares the machine's momentary load;
    // the median of the per-pair differences is the overhead least disturbed by other processes.
    const overhead = median(serverTimes.map((time, index) => time - directTimes[index]!));
    console.log(`first_token_overhead_ms: ${overhead.toFixed(2)} ms`);
    console.log(`stream_tokens: ${deltas} tokens`);
    console.log(`stream_tokens_per_s: ${Math.round(deltas / seconds)} tokens/s`);
    console.log(`stream_tokens_per_s_direct: ${Math.round(directDeltas / directSeconds)} tokens/s`);
    // Other work on the machine moves these figures a lot; say how busy it was.
    console.log(`cpus: ${availableParallelism()} cores`);
    console.log(`load_average_1m: ${loadavg()[0]!.toFixed(2)} processes`);
    await rm(home, { recursive: true, force: true });
  } finally {
    server.child.kill();
    provider.child.kill();
  }
}

await main();
