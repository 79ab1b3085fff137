import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Topics (C15) in the browser without a judge: the plan says nothing leaves, the run labels by name.
let app: LaunchedApp;
let canvas: CanvasDriver;

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
});

describe('topics on the memory page', () => {
  it('add a topic, see the plan, start, and find the asked turn labelled', async () => {
    const page = app.page;
    await page.locator('[data-testid="node-card"]').first().waitFor();
    const question = await canvas.addQuestion('How do escalators differ from a lift?');
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
});
