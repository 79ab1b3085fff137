import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, QuestionNode } from '../../../protocol/index.ts';
import { contextHash, hashCanonical, imagePlaceholder, sha256Hex } from '../../core/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../../tests/support/scripted-provider.ts';
import { startTestServer, type TestServer } from '../../../tests/support/test-server.ts';
import { modelSetPlan } from './model-set-plan.ts';
import { TestApp } from './test-app.ts';

/**
 * Issue 31, part 1, end to end over loopback: the app's store asks a question's model set through the real server
 * (one HTTP client, one handshake) to scripted OpenAI-compatible and Anthropic providers that answer per model.
 */
let server: TestServer;
let provider: ScriptedProvider;
const KEY = 'sk-test-model-set-0123456789';

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer();
  const base = `${provider.url}/v1`;
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [
        { id: 'local', kind: 'openai-compatible', baseUrl: base, apiKey: KEY, models: ['alpha', 'llava-small'] },
        { id: 'anthropic', kind: 'anthropic', baseUrl: base, apiKey: KEY },
        { id: 'openai', kind: 'openai', baseUrl: base, apiKey: KEY },
        { id: 'openrouter', kind: 'openrouter', baseUrl: base, apiKey: KEY },
      ],
    }),
  });
  expect(response.status).toBe(200);
  provider.byModel = {
    alpha: { text: 'Alpha thinks it is four.' },
    'claude-haiku-4-5': { text: 'Haiku says 4.' },
    'gpt-4o': { text: 'GPT-4o: the answer is 4.', usage: { input: 1_000, output: 200 } },
  };
});
afterAll(async () => {
  await server?.dispose();
  await provider?.close();
});
beforeEach(() => {
  provider.requests.length = 0;
});

async function newApp(): Promise<TestApp> {
  const app = await new TestApp(server, `model-set-${crypto.randomUUID()}`).start();
  await app.state.createCanvas('Model set');
  return app;
}

/** What a provider was handed, as (role, text) pairs in order, whichever wire format it speaks. */
function handedOver(body: unknown): { role: string; text: string }[] {
  const wire = body as {
    system?: string | { type: string; text?: string }[];
    messages: { role: string; content: string | { type: string; text?: string }[] }[];
  };
  const text = (content: string | { type: string; text?: string }[]) =>
    typeof content === 'string' ? content : content.map((part) => part.text ?? `<${part.type}>`).join('\n');
  const system = wire.system === undefined ? [] : [{ role: 'system', text: text(wire.system) }];
  return [...system, ...wire.messages.map((message) => ({ role: message.role, text: text(message.content) }))];
}

describe('a model set on a question (issue 31)', () => {
  it('3 models × 2 samples: 6 versions, one context hash, 3 request hashes, 6 commits, 6 identical contexts sent', async () => {
    const app = await newApp();
    const parent = app.addQuestion('Which unit is the mass measured in?');
    app.state.apply({
      type: 'add-version',
      nodeId: parent,
      select: true,
      version: {
        text: 'Kilograms.',
        question: 'Which unit is the mass measured in?',
        model: 'offline/receipt',
        requestHash: null,
        upstreamFingerprint: 'a'.repeat(64),
        upstream: { base: null, parts: [], removed: [] },
        origin: 'demo',
        status: 'complete',
        branchOf: null,
      },
    });
    const node = app.addQuestion('What is two plus two?');
    app.wire(parent, node);
    const models = ['openai/gpt-4o', 'local/alpha', 'anthropic/claude-haiku-4-5'];
    expect(
      app.state.apply({
        type: 'edit-node',
        nodeId: node,
        patch: { modelSet: { models, samples: 2, temperature: 0.3 } },
      }),
    ).toBe(true);

    const result = await app.state.askSet(node);
    expect(result).toMatchObject({ answers: 6, failed: 0 });

    const versions = (app.graph.nodes.get(node) as QuestionNode).versions;
    expect(versions).toHaveLength(6);
    // Each answer is its model's own, tagged with model, sample and settings; the first model's first is selected.
    expect(versions.map((version) => [version.setAnswer?.model, version.setAnswer?.sample, version.text])).toEqual(
      expect.arrayContaining([
        ['openai/gpt-4o', 1, 'GPT-4o: the answer is 4.'],
        ['openai/gpt-4o', 2, 'GPT-4o: the answer is 4.'],
        ['local/alpha', 1, 'Alpha thinks it is four.'],
        ['local/alpha', 2, 'Alpha thinks it is four.'],
        ['anthropic/claude-haiku-4-5', 1, 'Haiku says 4.'],
        ['anthropic/claude-haiku-4-5', 2, 'Haiku says 4.'],
      ]),
    );
    const selected = versions.find(
      (version) => version.id === (app.graph.nodes.get(node) as QuestionNode).currentVersionId,
    );
    expect(selected?.setAnswer).toMatchObject({ model: 'openai/gpt-4o', sample: 1 });
    expect(new Set(versions.map((version) => version.setAnswer?.setId)).size).toBe(1);
    expect(
      versions.every((version) => version.setAnswer?.temperature === 0.3 && version.model === version.setAnswer.model),
    ).toBe(true);

    // Part 2: each answer keeps its latency and the provider's token counts, priced at its model's prices (a model
    // without prices: no price, never zero).
    const gpt = app.state.models.find((model) => model.id === 'openai/gpt-4o')!;
    expect(gpt.pricePerMTokIn).not.toBeNull();
    for (const version of versions.filter((each) => each.setAnswer?.model === 'openai/gpt-4o'))
      expect(version.setAnswer!.usage).toMatchObject({
        inputTokens: 1_000,
        outputTokens: 200,
        costUsd: (1_000 * gpt.pricePerMTokIn! + 200 * gpt.pricePerMTokOut!) / 1_000_000,
      });
    const alpha = versions.find((each) => each.setAnswer?.model === 'local/alpha')!.setAnswer!.usage!;
    expect(alpha.costUsd).toBeNull();
    expect(alpha.latencyMs).toBeGreaterThanOrEqual(0);

    // One context hash, three request hashes (one per model: its samples send the same request).
    const context = versions[0]!.setAnswer!.contextHash;
    expect(new Set(versions.map((version) => version.setAnswer!.contextHash))).toEqual(new Set([context]));
    const requestHashes = new Set(versions.map((version) => version.requestHash!));
    expect(requestHashes.size).toBe(3);

    // Six commit events on the canvas, each with both hashes.
    const commits = app.graph.events.filter((event) => event.op === 'commit');
    expect(commits).toHaveLength(6);
    for (const commit of commits) {
      expect(commit.meta.contextHash).toBe(context);
      expect(requestHashes.has(commit.meta.requestHash as string)).toBe(true);
    }
    // Six commits in the server's ledger, each with the context hash the server computed itself.
    const ledger = (await Promise.all([...requestHashes].map((hash) => server.context.commits.recorded(hash)))).flat();
    expect(ledger).toHaveLength(6);
    expect(
      ledger.every((commit) => commit.contextHash === context && commit.nodeId === node && commit.answerHash),
    ).toBe(true);

    // The providers were handed six identical contexts: byte for byte within a wire format, and the same
    // messages across the two formats; the temperature went with each.
    expect(provider.requests).toHaveLength(6);
    const bodies = provider.requests.map(
      (request) => request.body as { model: string; messages: unknown; temperature?: number },
    );
    expect(bodies.map((body) => body.model).sort()).toEqual([
      'alpha',
      'alpha',
      'claude-haiku-4-5',
      'claude-haiku-4-5',
      'gpt-4o',
      'gpt-4o',
    ]);
    for (const protocol of ['openai', 'anthropic'] as const) {
      const sent = provider.requests.filter((request) => request.protocol === protocol);
      expect(
        new Set(sent.map((request) => JSON.stringify((request.body as { messages: unknown }).messages))).size,
      ).toBe(1);
    }
    const first = handedOver(bodies[0]);
    expect(first.at(-1)).toEqual({ role: 'user', text: 'What is two plus two?' });
    expect(JSON.stringify(first)).toContain('Kilograms.');
    for (const body of bodies) {
      expect(handedOver(body)).toEqual(first);
      expect(body.temperature).toBe(0.3);
    }
    await app.close();
  });

  it('downstream compiles from the selected answer: selecting another answer of the set makes it stale, Replay reruns it', async () => {
    const app = await newApp();
    const node = app.addQuestion('Is the effect real?');
    const models = ['openai/gpt-4o', 'local/alpha'];
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { modelSet: { models, samples: 1, temperature: 0 } } });
    expect(await app.state.askSet(node)).toMatchObject({ answers: 2 });
    const below = app.addQuestion('So what follows?');
    app.wire(node, below);
    app.state.apply({ type: 'edit-node', nodeId: below, patch: { model: 'local/alpha' } });
    provider.requests.length = 0;
    expect(await app.state.ask(below)).toBe(true);
    // The selected answer (the first model's) is the one downstream was asked with.
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('GPT-4o: the answer is 4.');
    expect(app.state.shown.has(below)).toBe(false);
    const other = (app.graph.nodes.get(node) as QuestionNode).versions.find(
      (version) => version.setAnswer?.model === 'local/alpha',
    )!;
    expect(app.state.apply({ type: 'select-version', nodeId: node, versionId: other.id })).toBe(true);
    expect(app.state.shown.has(below)).toBe(true);
    provider.requests.length = 0;
    await app.state.replayStale();
    expect(provider.requests).toHaveLength(1);
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('Alpha thinks it is four.');
    expect(app.state.shown.has(below)).toBe(false);
    await app.close();
  });

  it('mixing a small-window model and an image-blind one compiles to their limits and says so', async () => {
    const app = await newApp();
    const bytes = new TextEncoder().encode('not really a png');
    const hash = sha256Hex(bytes);
    const dataBase64 = btoa(String.fromCharCode(...bytes));
    app.state.apply({
      type: 'add-attachment',
      attachment: {
        hash,
        mediaType: 'image/png',
        name: 'plot.png',
        byteLength: bytes.length,
        dataBase64,
      },
    });
    const node = app.addQuestion('What does the plot show?');
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { attachments: [hash] } });
    const models = ['anthropic/claude-haiku-4-5', 'local/llava-small', 'openrouter/meta-llama/llama-3.3-70b-instruct'];
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { modelSet: { models, samples: 1, temperature: 0 } } });

    const planned = modelSetPlan(app.state, node, 'preview');
    if (!planned.ok) throw new Error(planned.message);
    expect(planned.plan.limits).toMatchObject({
      contextWindow: 8_192,
      windowSetBy: 'local/llava-small',
      images: false,
      imagesSetBy: 'openrouter/meta-llama/llama-3.3-70b-instruct',
    });
    expect(planned.plan.limits.sentence).toBe(
      'One context for 3 models: llava-small set the window (8,192 tokens); Llama 3.3 70B (OpenRouter) takes no images, so images go as placeholders.',
    );

    expect(await app.state.askSet(node)).toMatchObject({ answers: 3 });
    expect(provider.requests).toHaveLength(3);
    // Even the two models that take images got the placeholder: the set sends one context.
    for (const request of provider.requests) {
      const sent = JSON.stringify(request.body);
      expect(sent).toContain(imagePlaceholder(hash, 'image/png'));
      expect(sent).not.toContain(dataBase64);
    }
    const versions = (app.graph.nodes.get(node) as QuestionNode).versions;
    expect(new Set(versions.map((version) => version.setAnswer!.contextHash)).size).toBe(1);
    await app.close();
  });

  it('refuses an ask over the per-ask cap in Settings, with the words why, before sending anything', async () => {
    const app = await newApp();
    expect(await app.state.saveSettings({ setCapUsd: 0.000001 })).toBe(true);
    try {
      const node = app.addQuestion('Summarise the study in one line.');
      const models = ['openai/gpt-4o', 'anthropic/claude-haiku-4-5'];
      app.state.apply({ type: 'edit-node', nodeId: node, patch: { modelSet: { models, samples: 2, temperature: 1 } } });
      expect(await app.state.askSet(node)).toMatchObject({ answers: 0 });
      expect(app.lastToast()).toMatchObject({ code: 'model-set-refused' });
      expect(app.lastToast()?.message).toMatch(
        /^4 requests would cost about \$0\.\d{4}, over the cap of \$0\.0000 per ask/,
      );
      expect(provider.requests).toHaveLength(0);
      expect((app.graph.nodes.get(node) as QuestionNode).versions).toEqual([]);
    } finally {
      await app.state.saveSettings({ setCapUsd: null });
      await app.close();
    }
  });

  it('through one set call: a model that fails leaves the other answers as versions; Stop stops every answer', async () => {
    const app = await newApp();
    const node = app.addQuestion('What is two plus two?');
    const models = ['local/alpha', 'anthropic/claude-haiku-4-5'];
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { modelSet: { models, samples: 2, temperature: 0.2 } } });
    const haiku = provider.byModel['claude-haiku-4-5']!;
    provider.byModel['claude-haiku-4-5'] = { status: 500, errorMessage: 'overloaded' };
    try {
      expect(await app.state.askSet(node)).toMatchObject({ answers: 2, failed: 2 });
    } finally {
      provider.byModel['claude-haiku-4-5'] = haiku;
    }
    const versions = (app.graph.nodes.get(node) as QuestionNode).versions;
    expect(versions.map((version) => [version.setAnswer?.model, version.text])).toEqual([
      ['local/alpha', 'Alpha thinks it is four.'],
      ['local/alpha', 'Alpha thinks it is four.'],
    ]);
    // Each answer was asked once: a failed one is not retried behind the person’s back.
    expect(provider.requests).toHaveLength(4);

    provider.requests.length = 0;
    const alpha = provider.byModel.alpha!;
    provider.byModel.alpha = { text: 'Still thinking', hang: true };
    provider.byModel['claude-haiku-4-5'] = { text: 'Still thinking', hang: true };
    try {
      const asking = app.state.askSet(node);
      await provider.waitForRequests(4);
      app.state.stop(node);
      expect(await asking).toMatchObject({ answers: 0 });
      for (let index = 0; index < 4; index += 1) expect((await provider.waitForEnd(index)).aborted).toBe(true);
    } finally {
      provider.byModel.alpha = alpha;
      provider.byModel['claude-haiku-4-5'] = haiku;
    }
  });

  it('the server refuses a context hash that is not its own, before any provider is called', async () => {
    const request: CanonicalRequest = {
      model: 'local/alpha',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'two plus two?' }] }],
      tools: {},
      temperature: 0.5,
    };
    const post = (claimed: string) =>
      server.api('/api/generate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ request, requestHash: hashCanonical(request), contextHash: claimed, images: [] }),
      });
    const refused = await (await post('e'.repeat(64))).text();
    expect(refused).toContain('"code":"context-hash-mismatch"');
    expect(refused).not.toContain('request-accepted');
    expect(provider.requests).toHaveLength(0);
    const accepted = await (await post(contextHash(request))).text();
    expect(accepted).toContain(`"contextHash":"${contextHash(request)}"`);
    expect(provider.requests).toHaveLength(1);
  });
});
