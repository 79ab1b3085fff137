import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEMORY_PROFILE_FORMAT,
  MEMORY_PROFILE_VERSION,
  type MemoryProfile,
  type ProfileLine,
  type TopicsState,
} from '../protocol/index.ts';
import { openDossierStore } from '../runtime/dossiers/index.ts';
import { MemoryStore } from '../runtime/memory/index.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings } from './support/put-settings.ts';

// Issue 29 on the Memory page, in Chromium: every item says how it is known, in words (the code only on hover and in
// data attributes), each dossier sentence says it is a model's summary and since when it holds, and a dossier
// sentence waiting in the Inbox names its topic.
const JANUARY = Date.UTC(2026, 0, 10, 12);
const MARCH = Date.UTC(2026, 2, 20, 12);
const NOW = Date.UTC(2026, 5, 1, 12);
const CODES = ['stated', 'observed', 'reconstructed', 'inferred', 'manual', 'folded', 'rewritten'];
let app: LaunchedApp;
let home: string;

function line(id: string, text: string, evidence: ProfileLine['evidence'], span: string | null): ProfileLine {
  return {
    id,
    text,
    evidence,
    span,
    origin: { canvasId: null, nodeId: null, versionId: null, commitHash: null, at: JANUARY },
    createdAt: JANUARY,
    supersedes: [],
    ended: null,
  };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'weft-e2e-trust-'));
  const profile: MemoryProfile = {
    format: MEMORY_PROFILE_FORMAT,
    version: MEMORY_PROFILE_VERSION,
    documents: {
      preferences: [
        line('said', 'Prefers tabs over spaces', 'stated', 'I prefer tabs over spaces'),
        line('guessed', 'Likes terse answers', 'inferred', 'just tell me'),
      ],
      identity: [line('imported', 'Works at a lighthouse', 'folded', null)],
    },
    refusals: [],
  };
  const store = new MemoryStore({ directory: join(home, 'memory'), now: () => NOW, newId: () => 'e' });
  await store.update(null, () => ({ change: { profile, events: [] }, result: null }));
  app = await launchApp({ home });
});
afterAll(async () => {
  await app?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('how each item in memory is known, on the Memory page', () => {
  it('profile lines, dossier sentences and the Inbox say who said it, how it is known and since when', async () => {
    const page = app.page;
    await page.getByTestId('tab-memory').click();
    await page.getByTestId('memory-page').waitFor();
    const badge = (document: string, text: string) =>
      page
        .getByTestId(`memory-document-${document}`)
        .getByTestId('memory-line')
        .filter({ hasText: text })
        .getByTestId('memory-known-as');
    await badge('preferences', 'tabs').waitFor();
    const shown = async (document: string, text: string) => {
      const found = badge(document, text);
      return [await found.textContent(), await found.getAttribute('data-known-as'), await found.getAttribute('title')];
    };
    const [saidWords, saidCode, saidWhy] = await shown('preferences', 'tabs');
    expect([saidWords, saidCode]).toEqual(['stated by you', 'stated']);
    expect(saidWhy).toContain('Your own words');
    const [guessWords, guessCode, guessWhy] = await shown('preferences', 'terse');
    expect([guessWords, guessCode]).toEqual(['inferred by a model', 'inferred']);
    expect(guessWhy).toContain('includes inferred items');
    expect((await shown('identity', 'lighthouse')).slice(0, 2)).toEqual([
      'reconstructed from partial data',
      'reconstructed',
    ]);
    // No line shows a bare code as its text (the words above are not codes: "stated by you", "inferred by a model").
    for (const text of await page.getByTestId('memory-line').allInnerTexts())
      for (const part of text.split(/\n|·/).map((each) => each.trim())) expect(CODES).not.toContain(part);

    // A topic with two dossier versions: the first sentence held since January, the second since March.
    const topics = page.getByTestId('topics');
    await topics.getByLabel('New topic').fill('Lighthouses');
    await topics.getByRole('button', { name: 'Add topic' }).click();
    await topics.getByTestId('topic').first().waitFor();
    const state = (await page.evaluate(async () => (await fetch('/api/topics')).json())) as TopicsState;
    const topicId = state.record.topics[0]!.id;
    const dossiers = openDossierStore(app.home);
    const cite = ['canvas:c1#n1@v1'];
    const kept = { id: 's1', text: 'The keeper logs the lamp every night.', citations: cite };
    for (const [version, writtenAt, what] of [
      [1, JANUARY, [kept]],
      [2, MARCH, [kept, { id: 's2', text: 'The lamp runs on LEDs now.', citations: cite }]],
    ] as const)
      dossiers.writeVersion({
        topicId,
        mode: 'update',
        modelId: 'scripted/writer',
        baseVersion: version - 1,
        dropped: [],
        turnsRead: [],
        factsRead: [],
        dossier: {
          format: 'weft.dossier',
          topicId,
          version,
          writtenAt,
          sections: { what: [...what], decisions: [], status: [], open: [] },
        },
      });
    expect(
      (await putSettings(app, { memoryAutoAccept: { profileFacts: false, dossierSentences: false } })).status,
    ).toBe(200);
    dossiers
      .sentenceProposals()
      .propose(topicId, [{ section: 'status', text: 'The lighthouse is automated.', citations: cite }]);
    dossiers.close();
    await page.getByTestId('tab-canvas').click();
    await page.getByTestId('tab-memory').click();

    const proposal = page.getByTestId('dossier-sentence-inbox').getByTestId('dossier-sentence-proposal');
    await proposal.first().waitFor();
    expect(await proposal.getByTestId('dossier-sentence-topic').textContent()).toBe('Lighthouses');
    expect(await proposal.textContent()).not.toContain(topicId);

    await page.getByTestId('dossiers').getByTestId('dossier-topic').filter({ hasText: 'Lighthouses' }).click();
    const sentence = (id: string) => page.locator(`[data-testid="dossier-sentence"][data-sentence-id="${id}"]`);
    await sentence('s1').waitFor();
    for (const id of ['s1', 's2'])
      expect(await sentence(id).getByTestId('dossier-known-as').textContent()).toBe('inferred by a model');
    expect(await sentence('s1').getByTestId('dossier-holds-since').textContent()).toMatch(
      /holds since .*Jan.*10.*2026/,
    );
    expect(await sentence('s2').getByTestId('dossier-holds-since').textContent()).toMatch(
      /holds since .*Mar.*20.*2026/,
    );
    expect(app.pageErrors).toEqual([]);
  }, 90_000);
});
