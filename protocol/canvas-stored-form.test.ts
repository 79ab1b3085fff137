import { describe, expect, it } from 'vitest';
import type { CanvasDocument, Version } from './canvas-document.ts';
import { migrateCanvasDocument, storedFormThreeToFour } from './canvas-migrations.ts';
import { CanvasDocumentSchema, storedCanvasDocument, versionOpening } from './canvas-stored-form.ts';

const hex = (digit: string) => digit.repeat(64);
type Json = Record<string, unknown>;

function version(id: string, question: string, text: string, upstream: Version['upstream']): Version {
  return {
    id,
    text,
    question,
    model: 'offline/receipt',
    createdAt: 100,
    requestHash: null,
    upstreamFingerprint: hex('a'),
    upstream,
    origin: 'generated',
    status: 'complete',
    branchOf: null,
  };
}

/** Three answered questions in a chain, each child recording its parent's part, as the app records them. */
function chainDocument(): CanvasDocument {
  const v1 = version('v1', 'Why do bees swarm?', 'Because the colony outgrows its hive.', {
    base: null,
    parts: [],
    removed: [],
  });
  const v2 = version('v2', 'When?', 'In late spring.', {
    base: { nodeId: 'q1', versionId: 'v1' },
    parts: [{ nodeId: 'q1', hash: hex('1'), opening: versionOpening(v1) }],
    removed: [],
  });
  const v3 = version('v3', 'How to prevent it?', 'Give them room.', {
    base: { nodeId: 'q2', versionId: 'v2' },
    parts: [{ nodeId: 'q2', hash: hex('2'), opening: versionOpening(v2) }],
    removed: [],
  });
  const question = (id: string, asked: Version) => ({
    id,
    createdAt: 10,
    position: { x: 0, y: 0 },
    size: null,
    archived: false,
    archivedAt: null,
    excludedParts: [],
    kind: 'question' as const,
    question: asked.question,
    versions: [asked],
    currentVersionId: asked.id,
    autoRerun: { enabled: false, rounds: 1 },
    model: null,
    attachments: [],
  });
  const event = (id: string, at: number, op: string, objectId: string, meta: Json, index: number) => ({
    id,
    at,
    op,
    objectId,
    meta: meta as CanvasDocument['events'][number]['meta'],
    prevHash: index === 0 ? '' : hex(String(index - 1)),
    hash: hex(String(index)),
  });
  return {
    format: 'weft.canvas',
    version: 4,
    canvas: { id: 'c1', name: 'Bees', workingDirectory: null, createdAt: 1 },
    nodes: [question('q1', v1), question('q2', v2), question('q3', v3)],
    wires: [
      { id: 'w1', from: 'q1', to: 'q2', createdAt: 11, kind: 'solid' },
      { id: 'w2', from: 'q2', to: 'q3', createdAt: 11, kind: 'dashed', depth: 'full' },
    ],
    attachments: [],
    dismissals: [],
    ledgers: [],
    events: [
      event('e0', 10, 'add', 'q1', { kind: 'question' }, 0),
      event('e1', 11, 'wire', 'w1', { from: 'q1', to: 'q2', kind: 'solid', depth: null }, 1),
      event('e2', 11, 'wire', 'w2', { from: 'q2', to: 'q3', kind: 'dashed', depth: 'full' }, 2),
      event(
        'e3',
        100,
        'version',
        'q2',
        {
          versionId: 'v2',
          model: 'offline/receipt',
          origin: 'generated',
          status: 'complete',
          requestHash: null,
          selected: true,
        },
        3,
      ),
    ],
  };
}

/** Through a file: the stored form written as JSON and read back by the schema. */
const throughFile = (document: CanvasDocument) =>
  CanvasDocumentSchema.parse(JSON.parse(JSON.stringify(storedCanvasDocument(document))));

describe('canvas stored form (version 4)', () => {
  it('stores what another record holds once and reads every record back exactly', () => {
    const document = chainDocument();
    const stored = storedCanvasDocument(document) as { nodes: Json[]; wires: unknown[]; events: unknown[] };
    const [, child] = stored.nodes;
    // Defaults, the repeated question and the current version id are left out.
    expect(Object.keys(child!)).toEqual(['id', 'createdAt', 'position', 'kind', 'question', 'versions']);
    const storedVersion = (child!.versions as Json[])[0]!;
    expect(storedVersion).not.toHaveProperty('question');
    expect(storedVersion).not.toHaveProperty('requestHash');
    // The parent's opening is its version's own text: the part is stored as its hash alone.
    expect(storedVersion.upstream).toEqual({ base: { nodeId: 'q1', versionId: 'v1' }, parts: [hex('1')] });
    expect(stored.wires[0]).toEqual(['w1', 'q1', 'q2', 11]);
    expect(stored.events[0]).toEqual(['e0', 10, 'add', 'q1', null, hex('0')]);
    expect(stored.events[1]).toEqual(['e1', 1, 'wire', 'w1', null, hex('1')]);
    expect(stored.events[3]).toEqual(['e3', 89, 'version', 'q2', ['v2', true], hex('3')]);
    expect(throughFile(document)).toEqual(document);
    expect(JSON.stringify(storedCanvasDocument(document)).length).toBeLessThan(JSON.stringify(document).length * 0.7);
  });

  it('keeps in full whatever its record no longer gives (C6: the opening as it was asked)', () => {
    const document = chainDocument();
    const [parent, child, grandchild] = document.nodes as Extract<
      CanvasDocument['nodes'][number],
      { kind: 'question' }
    >[];
    // The part recorded an opening from before the parent's answer was regenerated, so it differs from v1's.
    child!.versions[0]!.upstream.parts[0]!.opening = 'Why do bees swarm?\nAn older answer.';
    // A version asked before its node's question was edited.
    parent!.question = 'Why do honey bees swarm?';
    parent!.model = 'pinned';
    // The wire changed kind after its event, and an event whose meta its record does not give.
    document.events[1]!.meta = { from: 'q1', to: 'q2', kind: 'dashed', depth: 'quote' };
    document.events[3]!.meta = { ...document.events[3]!.meta, model: 'other' };
    // A broken link is kept as it is.
    document.events[2]!.prevHash = hex('e');
    const stored = storedCanvasDocument(document) as { nodes: Json[]; events: unknown[][] };
    const storedParent = stored.nodes[0]!;
    expect(storedParent.model).toBe('pinned');
    expect((storedParent.versions as Json[])[0]!.question).toBe('Why do bees swarm?');
    expect(((stored.nodes[1]!.versions as Json[])[0]!.upstream as Json).parts).toEqual([
      { nodeId: 'q1', hash: hex('1'), opening: 'Why do bees swarm?\nAn older answer.' },
    ]);
    expect(stored.events[1]![4]).toEqual(document.events[1]!.meta);
    expect(stored.events[2]).toHaveLength(7);
    expect(stored.events[3]![4]).toEqual(document.events[3]!.meta);
    expect(grandchild).toBeDefined();
    expect(throughFile(document)).toEqual(document);
  });

  it('a part whose base is deleted keeps its opening, so what changed stays answerable', () => {
    const document = chainDocument();
    const child = document.nodes[1]!;
    document.nodes = document.nodes.filter((node) => node.id !== 'q1');
    document.wires = document.wires.filter((wire) => wire.from !== 'q1');
    const stored = storedCanvasDocument(document) as { nodes: Json[] };
    const part = ((stored.nodes[0]!.versions as Json[])[0]!.upstream as { parts: unknown[] }).parts[0];
    expect(part).toEqual({
      nodeId: 'q1',
      hash: hex('1'),
      opening: 'Why do bees swarm?\nBecause the colony outgrows its hive.',
    });
    expect(throughFile(document).nodes[0]).toEqual(child);
  });

  it('a stored part without its base version is refused as corrupt, naming the part', () => {
    const stored = storedCanvasDocument(chainDocument()) as { nodes: Json[] };
    stored.nodes.splice(0, 1);
    const result = migrateCanvasDocument(JSON.parse(JSON.stringify(stored)));
    expect(!result.ok && result.error).toMatchObject({ code: 'corrupt', path: 'nodes.0.versions.0.upstream.parts.0' });
  });

  it('stored-form-3-to-4 reads a version-3 record as it is, and its next write is the compact form', () => {
    const document = chainDocument();
    const versionThree = { ...JSON.parse(JSON.stringify(document)), version: 3 } as Json;
    expect(storedFormThreeToFour.migrate(versionThree)).toEqual({ ...versionThree, version: 4 });
    const result = migrateCanvasDocument(versionThree);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.applied).toEqual([storedFormThreeToFour.name]);
    expect(result.document).toEqual(document);
    const written = JSON.stringify(storedCanvasDocument(result.document));
    expect(written.length).toBeLessThan(JSON.stringify(versionThree).length);
    expect(migrateCanvasDocument(JSON.parse(written))).toEqual({ ok: true, document, applied: [] });
  });

  it('an opening is never cut inside a surrogate pair', () => {
    const text = 'x'.repeat(237) + '🐝🐝';
    expect(versionOpening({ question: 'Q', text })).toBe('Q\n' + 'x'.repeat(237));
  });
});
