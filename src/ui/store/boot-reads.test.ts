import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, startTestServer, type TestServer } from '../../../tests/support/index.ts';
import type { ScriptedProvider } from '../../../tests/support/scripted-provider.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
let judge: ScriptedProvider;
beforeAll(async () => {
  judge = await startScriptedProvider();
  judge.setDefault({ text: '{"default": 0.1, "unrelated": 0.9}' });
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
  await judge?.close();
});

describe('the boot reads the settings beside the first canvas, not before it', () => {
  it('an upstream edit made before the settings arrive is still judged once they have', async () => {
    const name = `boot-reads-${Math.random()}`;
    const first = await new TestApp(server, name).start();
    await first.state.createCanvas('Judged after boot');
    expect(
      await first.state.saveSettings({
        providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${judge.url}/v1`, models: ['decider'] }],
        judgeModelId: 'judge/decider',
        defaultModelId: 'offline/receipt',
      }),
    ).toBe(true);
    const upstream = first.addQuestion('What is Rayleigh scattering?');
    const downstream = first.addQuestion('So why is the sky blue?');
    first.wire(upstream, downstream);
    await first.state.ask(upstream);
    await first.state.ask(downstream);
    await first.close();

    // The next page load, as main.tsx boots it, with the settings read held back until after the canvas is open.
    const app = new TestApp(server, name);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const readSettings = app.store.api.settings.bind(app.store.api);
    app.store.api.settings = async () => {
      await held;
      return readSettings();
    };
    const settingsRead = app.state.loadSettings();
    const modelsRead = app.state.loadModels();
    await app.state.initialise();
    expect(app.graph.nodes.has(downstream)).toBe(true);
    expect(app.state.settings).toBeNull();

    app.edit(upstream, 'What is Rayleigh scattering, briefly?');
    expect(app.state.shown.has(downstream)).toBe(true);
    release();
    await Promise.all([settingsRead, modelsRead]);
    await app.store.runtime.pendingJudgement;

    expect(judge.requests).toHaveLength(1);
    // The judge's verdict (10 % that it bears on the answer) dismisses the mark, as on a page booted in order.
    expect(app.state.stale.has(downstream)).toBe(true);
    expect(app.state.shown.has(downstream)).toBe(false);
    await app.close();
  });
});
