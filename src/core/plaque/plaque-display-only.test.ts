import { describe, expect, it } from 'vitest';
import type { Plaque } from '../../../protocol/index.ts';
import { buildRequest } from '../build-request.ts';
import { loadCanvas } from '../load-canvas.ts';
import { computeStaleFull } from '../stale-tracker.ts';
import { TestCanvas } from '../test-canvas.ts';

const ROOT_ANSWER = 'Dexie wraps IndexedDB. It versions schemas. Each change is a migration. Tests use fakes.';

function plaque(overrides: Partial<Plaque> = {}): Plaque {
  return {
    topic: 'Zebra schemas',
    takeaway: 'Zebra schemas are versioned by Dexie',
    reason: 'Versioning is the point of the answer.',
    sentences: [1, 2, 3],
    abstract: ['Dexie wraps IndexedDB.', 'It versions schemas.', 'Each change is a migration.'],
    source: 'model',
    model: 'test/model',
    writtenAt: 1,
    // #29: the grade is display-only too: these tests change it with the rest and nothing sent may move.
    summaryType: 'explanation',
    conclusiveness: 'settled',
    ...overrides,
  };
}

/** root → middle → leaf, all answered and fresh. */
function chain() {
  const canvas = new TestCanvas();
  const root = canvas.addQuestion('How does Dexie store records?', { id: 'root' });
  const rootVersion = canvas.answer(root, ROOT_ANSWER);
  const middle = canvas.addQuestion('And migrations?', { id: 'middle' });
  canvas.wire(root, middle);
  canvas.answer(middle, 'They run in order.');
  const leaf = canvas.addQuestion('And tests?', { id: 'leaf' });
  canvas.wire(middle, leaf);
  canvas.answer(leaf, 'Use fake-indexeddb.');
  canvas.assertStale([]);
  return { canvas, root, rootVersion, ids: [root, middle, leaf] };
}

/** Everything a plaque must never move: fingerprints, request hashes, compiled transcripts, the stale sets. */
function hashes(canvas: TestCanvas, ids: readonly string[]) {
  const full = computeStaleFull(canvas.graph);
  return {
    fingerprints: ids.map((id) => canvas.tracker.fingerprints.get(id)),
    fullFingerprints: ids.map((id) => full.fingerprints.get(id)),
    requests: ids.map((id) => buildRequest(canvas.compiled(id), { model: 'test/model' }).requestHash),
    transcripts: ids.map((id) => canvas.transcript(id)),
    stale: canvas.staleIds(),
    fullStale: [...full.stale].sort(),
  };
}

describe('plaques are display only (C32)', () => {
  it('writing, editing, regenerating and clearing a plaque changes no hash and marks nothing stale', () => {
    const { canvas, root, rootVersion, ids } = chain();
    const before = hashes(canvas, ids);
    const steps: Array<Plaque | null> = [
      plaque(),
      plaque({ source: 'person', model: null, takeaway: 'Zebra schemas: a person rewrote this takeaway' }),
      plaque({
        source: 'rule',
        model: null,
        refusal: 'topic-not-in-takeaway',
        topic: 'Dexie',
        takeaway: 'Dexie wraps IndexedDB.',
      }),
      plaque({ summaryType: 'recommendation', conclusiveness: 'open' }),
      null,
    ];
    for (const step of steps) {
      const outcome = canvas.apply({ type: 'set-plaque', nodeId: root, versionId: rootVersion, plaque: step });
      expect(outcome.touched).toEqual([]);
      expect(hashes(canvas, ids)).toEqual(before);
    }
    expect(before.stale).toEqual([]);
    // The plaque never reached any compiled context.
    canvas.apply({ type: 'set-plaque', nodeId: root, versionId: rootVersion, plaque: plaque() });
    for (const id of ids) expect(canvas.transcript(id)).not.toContain('Zebra');
  });

  it('each write is one plaque event with metadata only, and the plaque survives a save and load', () => {
    const { canvas, root, rootVersion } = chain();
    canvas.apply({ type: 'set-plaque', nodeId: root, versionId: rootVersion, plaque: plaque() });
    canvas.assertLastEvents(['plaque']);
    const event = canvas.graph.events.at(-1)!;
    expect(event.meta).toEqual({ versionId: rootVersion, source: 'model', model: 'test/model', refusal: null });
    expect(JSON.stringify(event)).not.toContain('Zebra');
    const loaded = loadCanvas(JSON.parse(JSON.stringify(canvas.document())));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const node = loaded.value.graph.nodes.get(root);
    expect(node?.kind === 'question' && node.versions[0]?.plaque).toEqual(plaque());
  });

  it('refuses a plaque whose topic is not in its takeaway or whose abstract is not the answer’s words', () => {
    const { canvas, root, rootVersion } = chain();
    const topic = canvas.tryApply({
      type: 'set-plaque',
      nodeId: root,
      versionId: rootVersion,
      plaque: plaque({ topic: 'Giraffe' }),
    });
    expect(!topic.ok && topic.error.code).toBe('invalid');
    const abstract = canvas.tryApply({
      type: 'set-plaque',
      nodeId: root,
      versionId: rootVersion,
      plaque: plaque({ abstract: ['Dexie is written in Rust.'] }),
    });
    expect(!abstract.ok && abstract.error.code).toBe('invalid');
    const missing = canvas.tryApply({ type: 'set-plaque', nodeId: root, versionId: 'nope', plaque: plaque() });
    expect(!missing.ok && missing.error.code).toBe('not-found');
    const node = canvas.graph.nodes.get(root);
    expect(node?.kind === 'question' && node.versions[0]?.plaque).toBeUndefined();
  });
});
