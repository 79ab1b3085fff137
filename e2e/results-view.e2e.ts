import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedProvider } from '../tests/support/index.ts';
import type { CanvasDriver } from './support/canvas-driver.ts';
import type { LaunchedApp } from './support/launch-app.ts';
import { launchScriptedApp, type ScriptedApp } from './support/scripted-app.ts';

// Issue 31, part 3 in the browser: a question's checks score every answer of a set; the Results tab shows
// questions × models with pass rates and a bar chart per check, and its CSV is the table.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
let kit: ScriptedApp;

beforeAll(async () => {
  kit = await launchScriptedApp('sk-test-results-0123456789', (scripted) => {
    scripted.byModel = { 'model-a': { text: 'The sky is blue, about 42.' }, 'model-b': { text: 'Grey today: 17.' } };
  });
  ({ app, canvas, provider } = kit);
});
afterAll(async () => {
  await kit?.close();
});

describe('Results view', () => {
  it('scores each answer of a set with the checks, shows the table and chart, and exports the table as CSV', async () => {
    const page = app.page;
    await page.getByTestId('add-question').click();
    const panel = canvas.panel;
    await panel.getByTestId('question-input').pressSequentially('What colour is the sky?', { delay: 0 });
    // Two checks: one each model passes differently; a pattern outside the safe subset is refused with a reason.
    await panel.getByTestId('check-text').fill('blue');
    await panel.getByTestId('check-add').click();
    await panel.getByTestId('check-kind').selectOption('regex');
    await panel.getByTestId('check-text').fill('(a+)+');
    await panel.getByTestId('check-add').click();
    expect(await panel.getByTestId('check-refusal').textContent()).toContain('repeated group');
    await panel.getByTestId('check-kind').selectOption('number');
    await panel.getByTestId('check-text').fill('42');
    await panel.getByTestId('check-tolerance').fill('1');
    await panel.getByTestId('check-add').click();
    expect(await panel.getByTestId('check-result').count()).toBe(2);

    await panel.getByTestId('ask-several').click();
    const dialog = page.getByTestId('ask-several-dialog');
    await dialog.getByTestId('set-model-scripted/model-b').check();
    await dialog.getByTestId('set-samples').fill('2');
    const before = provider.requests.length;
    await dialog.getByTestId('set-ask').click();
    await provider.waitForRequests(before + 4);
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => panel.getByTestId('version-item').count()).toBe(4);
    // The shown answer's results, with the check's words.
    const shown = panel.getByTestId('check-result');
    await expect.poll(() => shown.first().getAttribute('data-outcome')).not.toBe('pending');

    await page.getByTestId('tab-results').click();
    const view = page.getByTestId('results-view');
    const rows = view.getByTestId('results-row');
    await expect.poll(() => rows.count()).toBe(2);
    const cells = await rows.evaluateAll((each) =>
      each.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
    );
    expect(cells).toEqual([
      ['What colour is the sky?', 'scripted/model-a', '2', '4 of 4', '100.0%'],
      ['What colour is the sky?', 'scripted/model-b', '2', '0 of 4', '0.0%'],
    ]);
    // The chart: vega's SVG, drawn in an image that loaded (a bar per check × model).
    const image = view.getByTestId('results-chart-image');
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
      .toBeGreaterThan(100);
    const source = decodeURIComponent(
      (await image.getAttribute('src'))!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''),
    );
    expect(source.match(/aria-roledescription="bar"/g)).toHaveLength(4);
    expect(source).toContain('contains “blue”');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      view.getByTestId('results-export-csv').click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('question,model,answers,passed,scored,pass_rate_percent');
    expect(csv.slice(1).map((line) => line.split(','))).toEqual(
      cells.map(([question, model, answers, passed, rate]) => [
        question,
        model,
        answers,
        passed!.split(' of ')[0],
        passed!.split(' of ')[1],
        rate!.replace('%', ''),
      ]),
    );
    const [png] = await Promise.all([page.waitForEvent('download'), view.getByTestId('results-export-png').click()]);
    expect(
      readFileSync(await png.path())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
