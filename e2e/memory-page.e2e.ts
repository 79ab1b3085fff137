import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plural } from '../src/core/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// The Memory page in the house style (#30.4), in Chromium on a fresh install (the offline receipt answers): no raw
// code text anywhere on the page, every control the app's own, each line opens its evidence turn, the topic counts
// agree, and Build with no chat model is disabled and says which setting to change, with a link that opens it.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;

// Every code the page could show: the constitution's and the merge's refusals, the activity's own reasons.
const CODES = [
  'empty-fact',
  'not-one-line',
  'span-too-short',
  'span-not-found',
  'no-own-words',
  'identity-not-stated',
  'not-durable',
  'refused-by-person',
  'unknown-update-target',
  'visit-limit',
  'unknown-line',
  'drops-lines',
  'fact-missing',
  'mixed-no-op',
  'duplicate-line',
  'unrelated-add',
  'new-words',
  'merge-no-answer',
  'no-answer',
  'already-pending',
  'project-dossier',
  'dossier-no-model',
];
const STATED = 'I prefer answers in British English.';

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.replyFor = () => ({ text: 'A lift carries people between floors.' });
  app = await launchApp();
  // Facts skip the Inbox here: this test is about how the page shows them (e2e/memory-inbox.e2e.ts has the gate).
  expect((await putSettings(app, { memoryAutoAccept: { profileFacts: true } })).status).toBe(200);
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

const page = () => app.page;
const memory = () => page().getByTestId('memory-page');

async function showMemory(): Promise<void> {
  if ((await memory().count()) === 0) await page().getByTestId('tab-memory').click();
  await memory().waitFor();
}

/** What a person reads on the page, and the page's controls that are not the app's own. */
async function pageReading(): Promise<{ text: string; foreign: string[] }> {
  return memory().evaluate((root) => {
    const foreign: string[] = [];
    for (const control of root.querySelectorAll<HTMLElement>('button, select, input:not([type="file"])')) {
      const own = ['button', 'link', 'select', 'input', 'memory-line-text'].some((name) =>
        control.classList.contains(name),
      );
      const underlined = getComputedStyle(control).textDecorationLine.includes('underline');
      if (!own || underlined) foreign.push(control.outerHTML.slice(0, 120));
    }
    return { text: (root as HTMLElement).innerText, foreign };
  });
}

describe('the Memory page in the house style', () => {
  it('shows decisions in words, opens a line’s evidence turn, and uses only the app’s controls', async () => {
    await page().locator('[data-testid="node-card"]').first().waitFor();
    const asked = await canvas.addQuestion(`${STATED} What is a lift?`);
    await canvas.ask(asked);
    await page().locator('[data-testid="toast"][data-code="memory-admitted"]').first().waitFor();
    // The same statement again (refused: a line already says it) and a request (refused: nothing lasting).
    await canvas.ask(await canvas.addQuestion(`${STATED} And an escalator?`));
    await canvas.ask(await canvas.addQuestion('I want a regex for dates.'));

    await showMemory();
    const entries = memory().getByTestId('memory-activity-entry');
    await page().waitForFunction(
      () => document.querySelectorAll('[data-testid="memory-activity-entry"][data-kind="refused"]').length >= 2,
    );
    // Every decision is a sentence; its code is in the tooltip for bug reports.
    for (const label of await entries.getByTestId('memory-activity-label').all()) {
      expect(await label.textContent()).toMatch(/^[A-Z].*\.$/);
      expect(await label.getAttribute('title')).toBeTruthy();
    }
    const duplicate = memory().locator('[data-testid="memory-activity-entry"][data-reason="duplicate"]').first();
    expect(await duplicate.getByTestId('memory-activity-label').textContent()).toBe(
      'Not added again: a line already says it.',
    );
    expect(await duplicate.getByTestId('memory-activity-label').getAttribute('title')).toContain('duplicate');
    // A duplicate is not an error: not drawn in the danger colour.
    const colours = await memory().evaluate((root) => {
      const danger = getComputedStyle(root).getPropertyValue('--danger').trim();
      const probe = document.createElement('span');
      probe.style.color = danger;
      root.appendChild(probe);
      const dangerRgb = getComputedStyle(probe).color;
      probe.remove();
      const label = root.querySelector('[data-reason="duplicate"] [data-testid="memory-activity-label"]')!;
      return { danger: dangerRgb, duplicate: getComputedStyle(label).color };
    });
    expect(colours.duplicate).not.toBe(colours.danger);

    const reading = await pageReading();
    for (const code of CODES) expect(reading.text).not.toContain(code);
    expect(reading.foreign).toEqual([]);

    // The line shows the person's words and opens the turn they were said in, in one click.
    const line = memory().getByTestId('memory-document-preferences').getByTestId('memory-line').first();
    const evidence = line.getByTestId('memory-line-evidence');
    expect(await evidence.textContent()).toContain(`You said “${STATED}”`);
    await evidence.click();
    await memory().waitFor({ state: 'detached' });
    await expect.poll(async () => canvas.card(asked).getAttribute('class')).toContain('selected');
    expect(app.pageErrors).toEqual([]);
  });

  it('counts a topic’s turns from one source, and Build without a chat model says why and links to the setting', async () => {
    await showMemory();
    const topics = memory().getByTestId('topics');
    await topics.getByLabel('New topic').fill('Lift');
    await topics.getByRole('button', { name: 'Add topic' }).click();
    await topics.getByTestId('topic').first().waitFor();
    await topics.getByRole('button', { name: 'Label turns…' }).click();
    const plan = topics.getByTestId('topics-plan');
    // Start and Cancel are two of the app's buttons, apart.
    const start = (await plan.getByRole('button', { name: 'Start' }).boundingBox())!;
    const cancel = (await plan.getByRole('button', { name: 'Cancel' }).boundingBox())!;
    expect(cancel.x - (start.x + start.width)).toBeGreaterThanOrEqual(4);
    await plan.getByRole('button', { name: 'Start' }).click();
    await topics.getByTestId('topics-job').waitFor();

    // The run read every turn; the card's counts all come from the stored labels and agree with the list.
    const labelled = Number(
      /^(\d+) turns? labelled/.exec((await topics.getByTestId('topics-labelled').textContent())!)![1],
    );
    expect(labelled).toBeGreaterThan(0);
    const count = topics.getByTestId('topic-turns').first();
    expect(await count.textContent()).toBe(plural(labelled, 'turn'));
    await count.click();
    await topics.getByTestId('topic-label').first().waitFor();
    expect(await topics.getByTestId('topic-label').count()).toBe(labelled);
    expect(await topics.getByTestId('topics-job').textContent()).not.toMatch(/\d+ of \d+ labelled/);

    // Rename in place (no browser prompt): the form's own input and buttons, then the new name.
    await topics.getByRole('button', { name: 'Rename' }).click();
    await topics.getByLabel('New name for Lift').fill('Lifts');
    await topics.locator('.topic-rename').getByRole('button', { name: 'Rename' }).click();
    await topics.locator('.topic-name').filter({ hasText: 'Lifts' }).waitFor();

    // No chat model: Build is disabled, and the page says which setting to change, with a link that opens it.
    const dossiers = memory().getByTestId('dossiers');
    await dossiers.getByTestId('dossier-topic').filter({ hasText: 'Lift' }).click();
    const build = dossiers.getByRole('button', { name: 'Build…' });
    await build.waitFor();
    expect(await build.isDisabled()).toBe(true);
    const why = dossiers.getByTestId('dossier-needs-model');
    expect(await why.textContent()).toContain('Settings → Models');
    const reading = await pageReading();
    for (const code of CODES) expect(reading.text).not.toContain(code);
    expect(reading.foreign).toEqual([]);
    await dossiers.scrollIntoViewIfNeeded();
    await why.getByTestId('dossier-open-settings').click();
    await page().getByTestId('settings').waitFor();
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('default-model');

    // With a chat model as the default, Build is enabled and the notice is gone.
    const saved = await putSettings(app, {
      providers: [scriptedProviderEntry(provider.url, ['writer'])],
      defaultModelId: 'scripted/writer',
    });
    expect(saved.status).toBe(200);
    await showMemory();
    await memory().getByTestId('dossiers').getByTestId('dossier-topic').filter({ hasText: 'Lift' }).click();
    await expect.poll(() => memory().getByRole('button', { name: 'Build…' }).isEnabled()).toBe(true);
    expect(await memory().getByTestId('dossier-needs-model').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
