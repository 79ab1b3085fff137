import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedCrossref,
  startScriptedProvider,
  type ScriptedCrossref,
  type ScriptedProvider,
} from '../tests/support/index.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mcpEchoStdioConfig } from '../tests/support/mcp-echo-server.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// C35 in the browser: a question with scholarly search switched on; a scripted model on 127.0.0.1 calls the tool,
// a scripted Crossref answers, and the call with its result shows on the answer.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
let crossref: ScriptedCrossref;

const KEY = 'sk-test-chat-tools-0123456789';

beforeAll(async () => {
  provider = await startScriptedProvider();
  crossref = await startScriptedCrossref([
    {
      DOI: '10.5555/attention',
      title: ['Attention Is All You Need'],
      author: [{ given: 'Ashish', family: 'Vaswani' }],
      issued: { 'date-parts': [[2017]] },
      'container-title': ['Advances in Neural Information Processing Systems'],
    },
  ]);
  app = await launchApp({ crossrefUrl: crossref.url });
  canvas = new CanvasDriver(app.page);
  const settings = await putSettings(app, {
    providers: [scriptedProviderEntry(provider.url, ['scripted-model'], { apiKey: KEY })],
    defaultModelId: 'scripted/scripted-model',
  });
  expect(settings.status).toBe(200);
  await app.reload();
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
  await crossref?.close();
});

const page = () => app.page;

describe('tools for the chat model', () => {
  it('off by default; switched on it is declared in the preview and hash, and the call and its result show on the answer', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Tools');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
    const node = await canvas.addQuestion('Who wrote the transformer paper?');

    // Off by default: nothing offered, nothing in the preview.
    const toggle = canvas.panel.getByTestId('tool-scholarly-search');
    expect(await toggle.isChecked()).toBe(false);
    if ((await canvas.panel.getByTestId('preview-hash').count()) === 0)
      await canvas.panel.getByTestId('toggle-preview').click();
    const hashOff = await canvas.previewHash();
    expect(await canvas.panel.getByTestId('preview-tools').count()).toBe(0);

    // Switched on for the node while the canvas does not allow tools (the default): blocked, said so, not hashed.
    await toggle.check();
    await canvas.panel.getByTestId('tools-blocked').waitFor();
    expect(await canvas.panel.getByTestId('canvas-tools-allowed').isChecked()).toBe(false);
    expect(await canvas.panel.getByTestId('preview-tools').count()).toBe(0);
    expect(await canvas.previewHash()).toBe(hashOff);

    // The canvas allows tools: the declaration is in the preview and the hash moves.
    await canvas.panel.getByTestId('canvas-tools-allowed').check();
    await canvas.panel.getByTestId('preview-tools').waitFor();
    expect(await canvas.panel.getByTestId('tools-blocked').count()).toBe(0);
    expect(await canvas.panel.getByTestId('preview-tools').textContent()).toContain('scholarly_search');
    await expect.poll(() => canvas.previewHash()).not.toBe(hashOff);
    const hashOn = await canvas.previewHash();

    provider.script(
      { toolCalls: [{ id: 'call_e2e', name: 'scholarly_search', input: { query: 'attention transformer', rows: 2 } }] },
      { text: 'It was written by **Vaswani** et al. (2017).' },
    );
    await canvas.ask(node);
    expect(await canvas.panel.getByTestId('panel-answer').textContent()).toContain('Vaswani et al. (2017)');
    expect(crossref.queries).toEqual([{ query: 'attention transformer', rows: '2' }]);
    // The request the model got declared the tool; the version keeps the hash the preview showed.
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('scholarly_search');
    expect((await canvas.panel.getByTestId('version-hash').last().textContent())!.trim()).toBe(hashOn);

    // The call is on the answer, collapsed until opened.
    const calls = canvas.panel.getByTestId('tool-calls');
    await calls.waitFor();
    expect(await calls.locator('summary').first().textContent()).toContain('1 tool call');
    await calls.locator('summary').first().click();
    await calls.getByTestId('tool-call').locator('summary').click();
    expect(await calls.getByTestId('tool-call-input').textContent()).toBe('{"query":"attention transformer","rows":2}');
    expect(await calls.getByTestId('tool-call-output').textContent()).toContain(
      'Attention Is All You Need — Ashish Vaswani (2017)',
    );
    await canvas.screenshot('chat-tools');

    // Every call is an event, metadata only.
    const events = await page().evaluate(() =>
      (
        window as unknown as {
          weft: { store: { getState(): { graph: { events: { op: string; meta: Record<string, unknown> }[] } } } };
        }
      ).weft.store
        .getState()
        .graph.events.filter((event) => event.op === 'tool-call')
        .map((event) => event.meta),
    );
    expect(events).toEqual([expect.objectContaining({ tool: 'scholarly_search', status: 'ok', callId: 'call_e2e' })]);
    const switches = await page().evaluate(() =>
      (
        window as unknown as {
          weft: { store: { getState(): { graph: { events: { op: string; meta: Record<string, unknown> }[] } } } };
        }
      ).weft.store
        .getState()
        .graph.events.filter((event) => event.op === 'canvas-tools')
        .map((event) => event.meta),
    );
    expect(switches).toEqual([{ allowed: true }]);
    expect(JSON.stringify(events)).not.toContain('Attention');
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });

  it('MCP: a tool of a real stdio server from mcp.json, off until switched on, declared, called, and listed on the answer', async () => {
    writeFileSync(
      join(app.home, 'mcp.json'),
      JSON.stringify({ mcpServers: { echo: mcpEchoStdioConfig({ ECHO_SECRET: 'e2e-mcp-secret-value' }) } }),
    );
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('MCP tools');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
    const node = await canvas.addQuestion('Repeat “hello” with the echo tool.');

    if ((await canvas.panel.getByTestId('preview-hash').count()) === 0)
      await canvas.panel.getByTestId('toggle-preview').click();
    await canvas.panel.getByTestId('canvas-tools-allowed').check();
    const hashOff = await canvas.previewHash();
    const section = canvas.panel.getByTestId('mcp-tools');
    await section.locator('summary').click();
    const echo = section.getByTestId('mcp-tool-echo__echo');
    await echo.waitFor({ timeout: 30_000 });
    expect(await echo.isChecked()).toBe(false);
    await echo.check();
    await canvas.panel.getByTestId('preview-tools').waitFor();
    expect(await canvas.panel.getByTestId('preview-tools').textContent()).toContain('echo__echo');
    await expect.poll(() => canvas.previewHash()).not.toBe(hashOff);
    const hashOn = await canvas.previewHash();

    provider.requests.length = 0;
    provider.script(
      { toolCalls: [{ id: 'call_mcp_e2e', name: 'echo__echo', input: { text: 'hello' } }] },
      { text: 'The echo tool said **hello** back.' },
    );
    await canvas.ask(node);
    expect(await canvas.panel.getByTestId('panel-answer').textContent()).toContain('said hello back');
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('echo__echo');
    expect((await canvas.panel.getByTestId('version-hash').last().textContent())!.trim()).toBe(hashOn);

    const calls = canvas.panel.getByTestId('tool-calls');
    await calls.waitFor();
    await calls.locator('summary').first().click();
    await calls.getByTestId('tool-call').locator('summary').click();
    expect(await calls.getByTestId('tool-call-input').textContent()).toBe('{"text":"hello"}');
    expect(await calls.getByTestId('tool-call-output').textContent()).toBe('echo: hello');
    await canvas.screenshot('chat-tools-mcp');

    const events = await page().evaluate(() =>
      (
        window as unknown as {
          weft: { store: { getState(): { graph: { events: { op: string; meta: Record<string, unknown> }[] } } } };
        }
      ).weft.store
        .getState()
        .graph.events.filter((event) => event.op === 'tool-call')
        .map((event) => event.meta),
    );
    expect(events).toEqual([expect.objectContaining({ tool: 'echo__echo', status: 'ok', callId: 'call_mcp_e2e' })]);

    // Settings lists the server (env names only) and, on request, its tools.
    await page().getByTestId('tab-settings').click();
    const settings = page().getByTestId('mcp-settings');
    await settings.getByTestId('mcp-server').waitFor();
    expect(await settings.getByTestId('mcp-server').textContent()).toContain('ECHO_SECRET');
    await settings.getByTestId('mcp-list-tools').click();
    await settings.getByTestId('mcp-server-tool-list').waitFor({ timeout: 30_000 });
    expect(await settings.getByTestId('mcp-server-tool-list').textContent()).toContain('echo__add');
    expect(await page().content()).not.toContain('e2e-mcp-secret-value');
    await page().getByTestId('tab-canvas').click();
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
