import { describe, expect, it } from 'vitest';
import { type RecallReachEstimate, type TopicRecord } from '../../protocol/index.ts';
import { sha256Hex } from '../../src/core/index.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';
import { dossierStoreFor } from './dossier-services.ts';
import { hashTree } from '../atlas/testing/atlas-fixtures.ts';
import { CLAUDE_REPO, INFERRED_ON, plan, post, request, setting, storeCanvas } from './testing/recall-route-kit.ts';

describe('recall over HTTP on the real session fixtures (C16)', () => {
  let before: Record<string, string>;
  const atlas = withAtlasServer({
    prefix: 'weft-recall-',
    prepare: (fixtures) => {
      before = hashTree(fixtures.sessions);
    },
  });

  it('is scoped to the canvas project: another folder’s session never appears unless the switch is on', async () => {
    const scoped = await plan(atlas.server, request());
    expect(scoped.terms).toEqual(expect.arrayContaining(['greet']));
    const runners = scoped.items.map((item) => item.runner);
    expect(runners).toContain('claude-code');
    expect(runners).not.toContain('codex');
    expect(runners).not.toContain('pi');
    expect(scoped.block).toContain('claude-code · ');
    const outside = scoped.omitted.filter((omission) => omission.reason === 'out-of-scope');
    expect(outside.map((omission) => omission.runner)).toEqual(expect.arrayContaining(['codex', 'pi']));
    for (const omission of outside) expect(scoped.block).not.toContain(omission.sessionId!);
    expect(scoped.scope).toBe(CLAUDE_REPO);

    const global = await plan(atlas.server, request({ setting: setting({ global: true }) }));
    // The three runners ran the same scripted task: the words are one excerpt, the other two listed as duplicates.
    const reached = [
      ...global.items.map((item) => item.runner),
      ...global.omitted.filter((omission) => omission.reason === 'duplicate').map((omission) => omission.runner),
    ];
    expect(reached).toEqual(expect.arrayContaining(['claude-code', 'codex', 'pi']));
    // Nothing is out of scope with the switch on; the asked question itself is the ask, neither recalled nor listed.
    expect(global.omitted.filter((omission) => omission.reason === 'out-of-scope')).toEqual([]);
    expect(global.items.map((item) => item.sessionId)).not.toContain('canvas-active');
    expect(global.scope).toBeNull();
    // A canvas with no working directory reaches nothing by default.
    expect((await plan(atlas.server, request({ workingDirectory: null }))).block).toBeNull();
  });

  it('gives the same block bytes twice, corrects a typo against the index, and never writes under a root', async () => {
    const first = await plan(atlas.server, request());
    const second = await plan(atlas.server, request());
    expect(second.block).toBe(first.block);
    expect(first.blockHash).toBe(sha256Hex(first.block!));
    const typo = await plan(atlas.server, request({ question: 'How was the gret function written?' }));
    expect(typo.terms).toContain('greet');
    expect(typo.block).toBe(
      (await plan(atlas.server, request({ question: 'How was the greet function written?' }))).block,
    );
    expect(hashTree(atlas.fixtures.sessions)).toEqual(before);
  });

  it('does not let the active canvas’s own record change the terms (the preview and the run see the same words)', async () => {
    const asked = request({ question: 'How was the greet function in hello.ts written?' });
    const beforeRecord = await plan(atlas.server, asked);
    // The canvas's record reaches the index while the person types: "written" is then a word the index knows.
    await storeCanvas(atlas.server, 'canvas-active', (canvas) => {
      canvas.addQuestion('How was the greet function in hello.ts written?');
    });
    const afterRecord = await plan(atlas.server, asked);
    expect(afterRecord.terms).toEqual(beforeRecord.terms);
    expect(afterRecord.block).toBe(beforeRecord.block);
  });

  it('leaves a struck item out of the next plan, listed as struck', async () => {
    const first = await plan(atlas.server, request());
    const struckId = first.items[0]!.id;
    const next = await plan(atlas.server, request({ setting: setting({ struck: [struckId] }) }));
    expect(next.items.map((item) => item.id)).not.toContain(struckId);
    expect(next.omitted).toContainEqual(expect.objectContaining({ id: struckId, reason: 'struck' }));
  });

  it('brings other canvases of the folder, never the active one, and an archived node leaves recall', async () => {
    const other = await storeCanvas(atlas.server, 'canvas-other', (canvas) => {
      const node = canvas.addQuestion('Which greet signature did we settle on?');
      canvas.answer(node, 'greet(name: string) returns a template string.');
    });
    const key = 'canvas:canvas-other#canvas-other-n1';
    expect((await plan(atlas.server, request())).items.map((item) => item.id)).toContain(key);
    // Asked from that canvas itself: its own turn is already on the canvas.
    const own = await plan(atlas.server, request({ canvasId: 'canvas-other' }));
    expect(own.items.map((item) => item.id)).not.toContain(key);
    expect(own.omitted).toContainEqual(expect.objectContaining({ id: key, reason: 'out-of-scope' }));

    other.archive('canvas-other-n1');
    await atlas.server.context.canvases.write('canvas-other', other.document(), {
      baseRevision: (await atlas.server.context.canvases.read('canvas-other')).revision,
    });
    const after = await plan(atlas.server, request());
    expect(after.items.map((item) => item.id)).not.toContain(key);
    expect(after.block).not.toContain('template string');
  });

  it('brings the question topic’s dossier from the dossier store; a sentence whose source is archived leaves it', async () => {
    const canvas = await storeCanvas(atlas.server, 'canvas-dossier', (built) => {
      const node = built.addQuestion('Where does greet live?');
      built.answer(node, 'In hello.ts.');
    });
    const etag = (await atlas.server.api('/api/topics')).headers.get('etag')!;
    const created = await atlas.server.api('/api/topics', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ name: 'greet' }),
    });
    expect(created.status).toBe(200);
    const topicId = ((await created.json()) as { record: TopicRecord }).record.topics[0]!.id;
    const answered = canvas.document().nodes.find((node) => node.id === 'canvas-dossier-n1');
    const versionId = answered?.kind === 'question' ? answered.versions[0]!.id : '';
    const cited = `canvas:canvas-dossier#canvas-dossier-n1@${versionId}`;
    dossierStoreFor(atlas.server.context).writeVersion({
      topicId,
      mode: 'rebuild',
      modelId: 'p/m',
      baseVersion: 0,
      dropped: [],
      turnsRead: [cited],
      factsRead: [],
      dossier: {
        format: 'weft.dossier',
        topicId,
        version: 1,
        writtenAt: 5,
        sections: {
          what: [{ id: 's1', text: 'greet lives in hello.ts and returns a template string.', citations: [cited] }],
          decisions: [],
          status: [],
          open: [],
        },
      },
    });
    // #29: a dossier is a model's summary: by default it is left out as inferred, and read behind the switch.
    const byDefault = await plan(atlas.server, request());
    expect(byDefault.block ?? '').not.toContain('greet lives in hello.ts');
    expect(byDefault.omitted).toContainEqual(
      expect.objectContaining({ id: `dossier:${topicId}`, reason: 'inferred', knownAs: 'inferred' }),
    );
    const withDossier = await plan(atlas.server, request({ memoryReading: INFERRED_ON }));
    expect(withDossier.items.map((item) => item.id)).toContain(`dossier:${topicId}`);
    expect(withDossier.block).toContain('greet lives in hello.ts');
    expect(withDossier.block).toMatch(/\[D1 · Dossier “[^”]+” · written [0-9-]+ · inferred\]/);

    canvas.archive('canvas-dossier-n1');
    await atlas.server.context.canvases.write('canvas-dossier', canvas.document(), {
      baseRevision: (await atlas.server.context.canvases.read('canvas-dossier')).revision,
    });
    const archived = await plan(atlas.server, request({ memoryReading: INFERRED_ON }));
    expect(archived.block ?? '').not.toContain('greet lives in hello.ts');
    expect(archived.omitted).toContainEqual(expect.objectContaining({ reason: 'archived-source' }));
  });

  it('keeps a dossier’s sentences to the project: one citing only another folder’s session needs the switch', async () => {
    // Turn keys of sessions in this folder and in another (Codex ran the same task elsewhere).
    const everywhere = await plan(atlas.server, request({ setting: setting({ global: true }) }));
    const scoped = await plan(atlas.server, request());
    const here = scoped.items.find((item) => item.runner === 'claude-code')!.id;
    const elsewhere = scoped.omitted.find((omission) => omission.runner === 'codex')!.id;
    expect(everywhere.block).toBeTruthy();
    const etag = (await atlas.server.api('/api/topics')).headers.get('etag')!;
    const created = await atlas.server.api('/api/topics', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ name: 'function' }),
    });
    expect(created.status).toBe(200);
    const topicId = ((await created.json()) as { record: TopicRecord }).record.topics.find(
      (topic) => topic.name === 'function',
    )!.id;
    dossierStoreFor(atlas.server.context).writeVersion({
      topicId,
      mode: 'rebuild',
      modelId: 'p/m',
      baseVersion: 0,
      dropped: [],
      turnsRead: [here, elsewhere],
      factsRead: [],
      dossier: {
        format: 'weft.dossier',
        topicId,
        version: 1,
        writtenAt: 6,
        sections: {
          what: [
            { id: 'away', text: 'Codex wrote the function in its own folder.', citations: [elsewhere] },
            { id: 'both', text: 'Both runs wrote the same function.', citations: [elsewhere, here] },
          ],
          decisions: [{ id: 'home', text: 'The function returns a template string.', citations: [here] }],
          status: [],
          open: [],
        },
      },
    });
    const byDefault = await plan(atlas.server, request({ memoryReading: INFERRED_ON }));
    expect(byDefault.items.map((item) => item.id)).toContain(`dossier:${topicId}`);
    expect(byDefault.block).toContain('Both runs wrote the same function.');
    expect(byDefault.block).toContain('The function returns a template string.');
    expect(byDefault.block).not.toContain('Codex wrote the function');
    expect(byDefault.omitted).toContainEqual(
      expect.objectContaining({ id: `dossier:${topicId}#away`, reason: 'out-of-scope' }),
    );
    const global = await plan(
      atlas.server,
      request({ setting: setting({ global: true }), memoryReading: INFERRED_ON }),
    );
    expect(global.block).toContain('Codex wrote the function in its own folder.');
    expect(global.omitted.map((omission) => omission.id)).not.toContain(`dossier:${topicId}#away`);
  });

  it('a node dated "as of" recalls the dossier as it stood then: a superseded sentence comes back (#29.4)', async () => {
    const etag = (await atlas.server.api('/api/topics')).headers.get('etag')!;
    const created = await atlas.server.api('/api/topics', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ name: 'hello' }),
    });
    expect(created.status).toBe(200);
    const topicId = ((await created.json()) as { record: TopicRecord }).record.topics.find(
      (topic) => topic.name === 'hello',
    )!.id;
    const canvas = await storeCanvas(atlas.server, 'canvas-as-of', (built) => {
      built.answer(built.addQuestion('How does hello print its greeting?'), 'Through the standard output.');
    });
    const answered = canvas.document().nodes.find((node) => node.id === 'canvas-as-of-n1');
    const cited = `canvas:canvas-as-of#canvas-as-of-n1@${answered?.kind === 'question' ? answered.versions[0]!.id : ''}`;
    const [MARCH, APRIL, JUNE] = [Date.UTC(2026, 2, 1), Date.UTC(2026, 3, 1), Date.UTC(2026, 5, 1)];
    const store = dossierStoreFor(atlas.server.context);
    for (const [version, writtenAt, text] of [
      [1, MARCH, 'hello.ts reads its greeting from greeting-v1.yaml.'],
      [2, JUNE, 'hello.ts reads its greeting from greeting-v2.toml.'],
    ] as const)
      store.writeVersion({
        topicId,
        mode: version === 1 ? 'rebuild' : 'update',
        modelId: 'p/m',
        baseVersion: version - 1,
        dropped: [],
        turnsRead: [cited],
        factsRead: [],
        dossier: {
          format: 'weft.dossier',
          topicId,
          version,
          writtenAt,
          sections: { what: [], decisions: [{ id: 'output', text, citations: [cited] }], status: [], open: [] },
        },
      });
    const global = setting({ global: true });
    const now = await plan(atlas.server, request({ setting: global, memoryReading: INFERRED_ON }));
    expect(now.block).toContain('greeting-v2.toml');
    expect(now.block).not.toContain('greeting-v1.yaml');
    const then = await plan(
      atlas.server,
      request({ setting: global, memoryReading: { includeInferred: true, asOf: APRIL } }),
    );
    expect(then.block!.split('\n')[0]).toBe('[Recall as of 2026-04-01T00:00:00.000Z]');
    expect(then.block).toContain('greeting-v1.yaml');
    expect(then.block).not.toContain('greeting-v2.toml');
  });

  it('refuses a full reach without confirmation, and estimates it first (nothing is judged without a judge)', async () => {
    const full = request({ setting: setting({ reach: 'full' }) });
    const refused = await post(atlas.server, '/api/recall/plan', full);
    expect(refused.status).toBe(428);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('recall-full-unconfirmed');
    const estimate = (await (await post(atlas.server, '/api/recall/reach', full)).json()) as RecallReachEstimate;
    expect(estimate).toEqual({
      reach: 'full',
      candidates: 0,
      requests: 0,
      seconds: 0,
      price: null,
      judgeModelId: null,
    });
    expect((await post(atlas.server, '/api/recall/plan', { ...full, confirmFull: true })).status).toBe(200);
  });

  it('refuses a malformed request with a coded error', async () => {
    const response = await post(atlas.server, '/api/recall/plan', { question: 'x' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid-body');
  });
});
