import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// #30 part 1: the first click on Ask after typing a question is never lost. Leaving the field commits the question,
// which renames the panel; nothing above Ask may move between the pointer going down and the click. The node panel
// has one width (440 px); what varies is the room beside it: three window widths, and the Ask-the-canvas side chat
// open beside it.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;

const LAYOUTS = [
  { width: 1440, height: 900, askCanvas: false },
  { width: 1024, height: 768, askCanvas: false },
  { width: 1280, height: 800, askCanvas: true },
] as const;

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.setDefault({ text: 'Scattered sunlight.' });
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  const settings = await putSettings(app, {
    providers: [scriptedProviderEntry(provider.url, ['scripted-model'], { apiKey: 'sk-test-ask-click-0123456789' })],
    defaultModelId: 'scripted/scripted-model',
  });
  expect(settings.status).toBe(200);
  await app.reload();
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

const page = () => app.page;

describe('Ask after typing', () => {
  for (const layout of LAYOUTS) {
    it(`sends on the first click at ${layout.width}×${layout.height}${layout.askCanvas ? ' beside Ask the canvas' : ''}`, async () => {
      await page().setViewportSize({ width: layout.width, height: layout.height });
      const askCanvasOpen = (await page().getByTestId('ask-canvas-panel').count()) > 0;
      if (askCanvasOpen !== layout.askCanvas) await canvas.command('ask-canvas');
      await page().getByTestId('add-question').click();
      const panel = canvas.panel;
      const input = panel.getByTestId('question-input');
      await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
      // Long enough to wrap over several lines if the title were not clamped.
      const question = `What did we conclude about scattering and cloud colour, at ${layout.width} pixels wide, over the whole week?`;
      await input.pressSequentially(question, { delay: 0 });
      const ask = panel.getByTestId('ask');
      const before = (await ask.boundingBox())!;
      const before_header = (await panel.locator('.panel-header').boundingBox())!;
      const requests = provider.requests.length;
      // One click, straight after typing: pointer-down blurs the field (the edit is committed) and the click follows.
      await ask.click();
      await provider.waitForRequests(requests + 1);
      const body = JSON.stringify(provider.requests[requests]!.body);
      expect(body).toContain(question);
      // The header kept its height and the title its one line (the whole title is on hover).
      const header = (await panel.locator('.panel-header').boundingBox())!;
      expect(header.height).toBe(before_header.height);
      expect(await panel.getByTestId('panel-title').getAttribute('title')).toBe(question);
      const title = panel.getByTestId('panel-title');
      expect(await title.evaluate((element) => element.scrollHeight <= element.clientHeight + 1)).toBe(true);
      await panel.getByTestId('panel-answer').filter({ hasText: 'Scattered sunlight' }).waitFor();
      // The button did not move under the pointer (it reads Regenerate now, in the same place).
      const after = (await ask.boundingBox())!;
      expect(Math.abs(after.y - before.y)).toBeLessThan(1);
    });
  }

  it('shows its shortcut, and the shortcut asks too', async () => {
    await page().getByTestId('add-question').click();
    const panel = canvas.panel;
    expect(await panel.getByTestId('ask-shortcut').textContent()).toBe('Ctrl+Enter');
    const input = panel.getByTestId('question-input');
    await input.pressSequentially('Why are clouds white?', { delay: 0 });
    const requests = provider.requests.length;
    await input.press('Control+Enter');
    await provider.waitForRequests(requests + 1);
    expect(JSON.stringify(provider.requests[requests]!.body)).toContain('Why are clouds white?');
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
