import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopicsState } from '../protocol/index.ts';
import { openDossierStore } from '../runtime/dossiers/index.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings } from './support/put-settings.ts';

// Issue 29.2 in the browser: strike a dossier sentence from the dossier panel, find it under Memory → Put aside with
// its words, kind, reason and time, restore it there, and see it back in the dossier.
let app: LaunchedApp;
const STRUCK = 'Escalators carry people continuously between floors.';
const KEPT = 'The survey compares them with lifts.';
const ACCEPTED = 'The survey counts steps per minute.';
const REJECTED = 'Escalators were invented in Tokyo.';

beforeAll(async () => {
  app = await launchApp();
});
afterAll(async () => {
  await app?.close();
});

describe('put aside on the memory page', () => {
  it('strike a sentence → listed under Put aside → Restore brings it back', async () => {
    const page = app.page;
    await page.getByTestId('tab-memory').click();
    const topics = page.getByTestId('topics');
    await topics.getByLabel('New topic').fill('Escalators');
    await topics.getByRole('button', { name: 'Add topic' }).click();
    await topics.getByTestId('topic').first().waitFor();
    const state = (await page.evaluate(async () => (await fetch('/api/topics')).json())) as TopicsState;
    const topicId = state.record.topics[0]!.id;
    const store = openDossierStore(app.home);
    const citation = 'canvas:c1#n1@v1';
    store.writeVersion({
      topicId,
      mode: 'rebuild',
      modelId: 'scripted/writer',
      baseVersion: 0,
      dropped: [],
      turnsRead: [citation],
      factsRead: [],
      dossier: {
        format: 'weft.dossier',
        topicId,
        version: 1,
        writtenAt: 5,
        sections: {
          what: [
            { id: 's1', text: STRUCK, citations: [citation] },
            { id: 's2', text: KEPT, citations: [citation] },
          ],
          decisions: [],
          status: [],
          open: [],
        },
      },
    });
    store.close();

    const dossiers = page.getByTestId('dossiers');
    await dossiers.getByTestId('dossier-topic').filter({ hasText: 'Escalators' }).click();
    const struck = dossiers.locator('[data-testid="dossier-sentence"][data-sentence-id="s1"]');
    await struck.waitFor();
    await struck.getByTestId('dossier-strike').click();
    await struck.waitFor({ state: 'detached' });
    expect(await dossiers.getByTestId('dossier-sentence').allTextContents()).toEqual([expect.stringContaining(KEPT)]);
    expect(await dossiers.getByTestId('dossier-struck').textContent()).toContain('1 sentence struck');

    const section = page.getByTestId('memory-put-asides');
    const item = section.locator('[data-testid="memory-put-aside"][data-kind="dossier-sentence"]');
    await item.waitFor();
    expect(await item.getByTestId('memory-put-aside-text').textContent()).toBe(`“${STRUCK}”`);
    expect(await item.textContent()).toContain('dossier sentence · struck');
    expect(await section.getByTestId('memory-put-asides-count').textContent()).toBe('1');

    await item.getByTestId('memory-put-aside-restore').click();
    await item.waitFor({ state: 'detached' });
    await section.getByText('Nothing is put aside.').waitFor();
    await page.getByTestId('tab-canvas').click();
    await page.getByTestId('tab-memory').click();
    await page.getByTestId('dossiers').getByTestId('dossier-topic').filter({ hasText: 'Escalators' }).click();
    await page.locator('[data-testid="dossier-sentence"][data-sentence-id="s1"]').waitFor();
    expect(app.pageErrors).toEqual([]);
  }, 90_000);

  it('with review on, a dossier sentence waits in the Inbox: Accept puts it in the dossier, Reject puts it aside', async () => {
    const page = app.page;
    expect(
      (await putSettings(app, { memoryAutoAccept: { profileFacts: false, dossierSentences: false } })).status,
    ).toBe(200);
    const state = (await page.evaluate(async () => (await fetch('/api/topics')).json())) as TopicsState;
    const topicId = state.record.topics[0]!.id;
    const store = openDossierStore(app.home);
    // Filed as a dossier run with review on files them (the run itself: tests/struck-sentence-golden.test.ts).
    store.sentenceProposals().propose(topicId, [
      { section: 'decisions', text: ACCEPTED, citations: ['canvas:c1#n1@v1'] },
      { section: 'open', text: REJECTED, citations: ['canvas:c1#n1@v1'] },
    ]);
    store.close();
    await page.getByTestId('tab-canvas').click();
    await page.getByTestId('tab-memory').click();

    const waiting = page.getByTestId('dossier-sentence-inbox').getByTestId('dossier-sentence-proposal');
    await waiting.first().waitFor();
    expect(await waiting.allTextContents()).toEqual([
      expect.stringContaining(REJECTED),
      expect.stringContaining(ACCEPTED),
    ]);
    await waiting.filter({ hasText: ACCEPTED }).getByTestId('dossier-sentence-accept').click();
    await waiting.filter({ hasText: ACCEPTED }).waitFor({ state: 'detached' });
    await waiting.filter({ hasText: REJECTED }).getByTestId('dossier-sentence-reject').click();
    await waiting.first().waitFor({ state: 'detached' });

    await page.getByTestId('dossiers').getByTestId('dossier-topic').filter({ hasText: 'Escalators' }).click();
    await page.getByTestId('dossier-sentence').filter({ hasText: ACCEPTED }).waitFor();
    expect(await page.getByTestId('dossier-sentence').filter({ hasText: REJECTED }).count()).toBe(0);
    const rejected = page
      .getByTestId('memory-put-asides')
      .locator('[data-testid="memory-put-aside"][data-kind="dossier-sentence"]')
      .filter({ hasText: REJECTED });
    await rejected.waitFor();
    expect(await rejected.textContent()).toContain('dossier sentence · rejected');
    expect(app.pageErrors).toEqual([]);
  }, 90_000);
});
