import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecallReachEstimate, type TopicRecord } from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';
import { memoryDirectory } from '../../runtime/memory/index.ts';
import { TopicStore } from '../../runtime/topics/index.ts';
import { plan, post, request, setting, storeCanvas } from './testing/recall-route-kit.ts';

describe('recall with a decision model (C16)', () => {
  const MULTI_TURN = '/tmp/realsessions/out/claude/multi-turn/repo';
  const atlas = withAtlasServer({ prefix: 'weft-recall-judge-', server: { judgeTimeoutMs: 2000 } });
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = await startScriptedProvider();
    const saved = await atlas.server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['small'] }],
        judgeModelId: 'judge/small',
      }),
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await provider.close();
  });

  it('the judge reads only in-scope openings at the light reach, and its relevance orders turns of a day', async () => {
    const scoped = request({ question: 'Mark the first item as done and show the file', workingDirectory: MULTI_TURN });
    const scopedEstimate = (await (
      await post(atlas.server, '/api/recall/reach', scoped)
    ).json()) as RecallReachEstimate;
    provider.script({ text: '{"c1": 1}' });
    const scopedPlan = await plan(atlas.server, { ...scoped, setting: setting({ reach: 'light' }) });
    // One request per forty in-scope candidates: the out-of-scope ones are never read.
    expect(scopedEstimate.candidates).toBe(
      scopedPlan.items.length +
        scopedPlan.omitted.filter((each) => each.reason === 'duplicate' || each.reason === 'budget').length,
    );
    provider.requests.length = 0;
    const asked = { ...scoped, setting: setting({ global: true }) };
    const estimate = (await (await post(atlas.server, '/api/recall/reach', asked)).json()) as RecallReachEstimate;
    expect(provider.requests).toHaveLength(0);
    expect(estimate).toMatchObject({ reach: 'light', requests: 1, judgeModelId: 'judge/small' });
    const candidates = estimate.candidates;
    expect(candidates).toBeGreaterThanOrEqual(2);
    // The judge prefers the last candidate it was shown.
    const preference = Object.fromEntries(
      Array.from({ length: candidates }, (_value, index) => [`c${index + 1}`, index === candidates - 1 ? 0.9 : 0.01]),
    );
    provider.script({ text: JSON.stringify(preference) });
    const judged = await plan(atlas.server, asked);
    expect(provider.requests).toHaveLength(1);
    const sent = JSON.stringify(provider.requests[0]!.body);
    expect(sent).toContain('recall-relevance');
    expect(sent).not.toContain('sk-test');
    // The run plans the same block as the preview: the judge's answer is remembered, not asked for again.
    provider.script({ text: 'not a distribution' });
    const run = await plan(atlas.server, asked);
    expect(provider.requests).toHaveLength(1);
    expect(run.blockHash).toBe(judged.blockHash);
    expect(run.items.map((item) => item.id)).toEqual(judged.items.map((item) => item.id));
    // The same words with a full stop are another question to the judge; it does not answer (the rule fallback), so
    // matched terms and recency order the plan.
    const unjudged = await plan(atlas.server, { ...asked, question: `${asked.question}.` });
    expect(provider.requests).toHaveLength(2);
    expect(judged.items.map((item) => item.id)).not.toEqual(unjudged.items.map((item) => item.id));
  });

  it('the asked node’s own words never decide the terms; the canvas’s other turns count and come back', async () => {
    const asked = request({ question: 'What did we say about the quokka?', canvasId: 'canvas-words', nodeId: 'asked' });
    // Only the asked node holds the word: it is the person's typing, not something the index knows.
    const alone = await plan(atlas.server, asked);
    expect(alone.terms).not.toContain('quokka');
    await storeCanvas(atlas.server, 'canvas-words', (built) => {
      built.answer(built.addQuestion('Which animal did we photograph on Rottnest?'), 'A quokka, smiling at the lens.');
    });
    const beside = await plan(atlas.server, asked);
    expect(beside.terms).toContain('quokka');
    expect(beside.items[0]).toMatchObject({ id: 'canvas:canvas-words#canvas-words-n1', runner: 'canvas' });
    expect(beside.omitted.map((omission) => omission.id)).not.toContain('canvas:canvas-words#asked');
  });

  it('an upstream re-ask never recalls the answers built on it downstream; a turn beside it comes back', async () => {
    await storeCanvas(atlas.server, 'canvas-downstream', (built) => {
      const upstream = built.addQuestion('Where do wallabies live?', { id: 'up' });
      built.answer(upstream, 'Wallabies live in Tasmania.');
      const below = built.addQuestion('Which wallaby did we see?', { id: 'below' });
      built.wire(upstream, below);
      built.answer(below, 'The wallaby we saw was a pademelon.');
      built.answer(built.addQuestion('What do wallabies eat?', { id: 'beside' }), 'Wallabies eat grasses.');
    });
    const replanned = await plan(
      atlas.server,
      request({ question: 'Where do wallabies live?', canvasId: 'canvas-downstream', nodeId: 'up' }),
    );
    const recalled = replanned.items.map((item) => item.id);
    expect(recalled).toContain('canvas:canvas-downstream#beside');
    expect(recalled).not.toContain('canvas:canvas-downstream#below');
    expect(replanned.block).not.toContain('pademelon');
  });

  it('issue 30: "scattering and cloud colour" brings the canvas’s five scattering turns, not the colour of an image', async () => {
    // The reported canvas: no working directory; five turns on scattering, three of them never say the word.
    const study: [string, string][] = [
      ['Why is the sky blue?', 'Rayleigh scattering: air molecules scatter short wavelengths far more than long ones.'],
      [
        'Why are clouds white?',
        'Droplets are larger than the wavelength, so Mie scattering treats every colour alike.',
      ],
      ['Why do sunsets look red?', 'The long path through air removes the blue before it reaches the eye.'],
      ['Why do storm clouds look grey?', 'Thick clouds let little light through; their bases are in shadow.'],
      [
        'What makes the glory around an aircraft shadow?',
        'Backward diffraction by uniform droplets gives coloured rings.',
      ],
    ];
    const canvas = await storeCanvas(atlas.server, 'canvas-study', (built) => {
      for (const [question, answer] of study) built.answer(built.addQuestion(question), answer);
    });
    const keys = canvas
      .document()
      .nodes.filter((node) => node.kind === 'question')
      .map((node) => `canvas:canvas-study#${node.id}`);
    const etag = (await atlas.server.api('/api/topics')).headers.get('etag')!;
    const created = await atlas.server.api('/api/topics', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ name: 'scattering' }),
    });
    const record = ((await created.json()) as { record: TopicRecord }).record;
    const topicId = record.topics.find((topic) => topic.name === 'scattering')!.id;
    // Labelled as the labelling job writes them (per version of each canvas turn).
    const store = new TopicStore({
      directory: memoryDirectory(atlas.server.context.home),
      now: () => 9,
      newId: () => 'x',
    });
    await store.update(null, (current) => {
      const labels = canvas.document().nodes.flatMap((node) =>
        node.kind === 'question'
          ? [
              {
                turnKey: `canvas:canvas-study#${node.id}@${node.versions[0]!.id}`,
                contentHash: 'h',
                topicIds: [topicId],
                by: 'judge' as const,
                at: 9,
              },
            ]
          : [],
      );
      return { record: { ...current.record, labels: [...current.record.labels, ...labels] }, events: [], result: null };
    });
    const question = 'What did we conclude about scattering and cloud colour?';
    for (const global of [true, false]) {
      const asked = await plan(
        atlas.server,
        request({
          question,
          canvasId: 'canvas-study',
          nodeId: 'ask',
          workingDirectory: null,
          setting: setting({ global }),
        }),
      );
      expect(asked.terms).toEqual(['scattering', 'cloud', 'colour']);
      const ids = asked.items.map((item) => item.id);
      // All five, first; "What colour is this image?" (the image sessions) never outranks them.
      expect(ids.slice(0, 5).sort()).toEqual([...keys].sort());
      expect(asked.omitted.filter((omission) => keys.includes(omission.id))).toEqual([]);
      expect(asked.block).toContain('Rayleigh scattering');
    }
  });
});
