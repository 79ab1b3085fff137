import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// Topics (C15) in the browser without a judge: the plan says nothing leaves, the run labels by name; the person
// checks a topic's labelled turns, opens one and removes a label. Then with a scripted judge on 127.0.0.1: the plan
// shows the requests and exactly what would leave.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
let questionId = '';

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.replyFor = () => ({ text: '{"none": 1}' });
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

describe('topics on the memory page', () => {
  it('add a topic, see the plan, start, and find the asked turn labelled', async () => {
    const page = app.page;
    await page.locator('[data-testid="node-card"]').first().waitFor();
    const question = await canvas.addQuestion('How do escalators differ from a lift?');
    questionId = question;
    await canvas.ask(question);
    await page.getByTestId('tab-memory').click();
    const topics = page.getByTestId('topics');
    await topics.waitFor();
    await topics.getByLabel('New topic').fill('Escalators');
    await topics.getByRole('button', { name: 'Add topic' }).click();
    await topics.getByTestId('topic').first().waitFor();

    await topics.getByRole('button', { name: 'Label turns…' }).click();
    const plan = topics.getByTestId('topics-plan');
    await plan.waitFor();
    expect(await plan.textContent()).toContain('No decision model is set');
    await plan.getByRole('button', { name: 'Start' }).click();
    await topics.getByTestId('topics-job').waitFor();
    expect(await topics.getByTestId('topics-job').textContent()).toContain('Last run done');
    await page.waitForFunction(() =>
      /1 turn(?!s)/.test(document.querySelector('[data-testid="topic"]')?.textContent ?? ''),
    );
  });

  it('lists the turns a topic labels, opens one, and removes its label', async () => {
    const page = app.page;
    const topics = page.getByTestId('topics');
    await topics.getByTestId('topic-turns').first().click();
    const label = topics.getByTestId('topic-label');
    await label.first().waitFor();
    expect(await label.count()).toBe(1);
    const text = (await label.first().textContent())!;
    expect(text).toContain('canvas');
    expect(text).toContain('How do escalators differ from a lift?');
    expect(text).toContain('name match');
    expect(await label.first().getAttribute('data-turn-key')).toMatch(new RegExp(`^canvas:.+#${questionId}@`));
    await canvas.screenshot('topics-labels');

    // One click opens the turn's node on its canvas.
    await label
      .first()
      .getByRole('button', { name: /How do escalators/ })
      .click();
    await page.getByTestId('memory-page').waitFor({ state: 'detached' });
    await expect.poll(async () => canvas.card(questionId).getAttribute('class')).toContain('selected');

    await page.getByTestId('tab-memory').click();
    await topics.getByTestId('topic-turns').first().click();
    await label.first().getByRole('button', { name: 'Remove label' }).click();
    await topics.getByTestId('topic-labels').filter({ hasText: 'No turns are labelled Escalators yet.' }).waitFor();
    await page.waitForFunction(() =>
      /0 turns/.test(document.querySelector('[data-testid="topic"]')?.textContent ?? ''),
    );
    // The next run reuses the turn as it is: the person's removal stands.
    await topics.getByRole('button', { name: 'Label turns…' }).click();
    expect(await topics.getByTestId('topics-plan').textContent()).toMatch(
      /(\d+) turns: \1 labelled already \(unchanged\), 0 to label/,
    );
    await topics.getByRole('button', { name: 'Cancel' }).click();
  });

  it('with a judge set, the plan shows the requests and each opening that would leave', async () => {
    const page = app.page;
    const settings = await putSettings(app, {
      providers: [scriptedProviderEntry(provider.url, ['small'], { id: 'judge' })],
      judgeModelId: 'judge/small',
    });
    expect(settings.status).toBe(200);
    const topics = page.getByTestId('topics');
    await topics.getByLabel('New topic').fill('Lifts');
    await topics.getByRole('button', { name: 'Add topic' }).click();
    await topics.getByTestId('topic').nth(1).waitFor();
    await topics.getByRole('button', { name: 'Label turns…' }).click();
    const plan = topics.getByTestId('topics-plan');
    await plan.waitFor();
    const shown = (await plan.textContent())!;
    // A new topic: every turn is labelled again, one decision request each.
    const [, turns, requests] = /(\d+) to label\. (\d+) requests to judge\/small/.exec(shown) ?? [];
    expect(Number(turns)).toBeGreaterThan(0);
    expect(requests).toBe(turns);
    await plan.getByText('What leaves this machine').click();
    expect(await plan.locator('pre').allTextContents()).toContainEqual(
      expect.stringContaining('How do escalators differ from a lift?'),
    );
    expect(await plan.locator('pre').count()).toBe(Number(turns));
    expect(provider.requests).toHaveLength(0);
    await plan.scrollIntoViewIfNeeded();
    await canvas.screenshot('topics-label-plan');
  });
});
