import { describe, expect, it } from 'vitest';
import { CANVAS_VERSION } from './canvas-document.ts';
import type { CanvasDocument, Version } from './canvas-document.ts';
import {
  CANVAS_MIGRATIONS,
  draftToVersionOne,
  eventsWithoutPrevHash,
  migrateCanvasDocument,
  partsToUpstreamRecords,
  storedFormThreeToFour,
} from './canvas-migrations.ts';
import { foldUpstream } from './upstream-record.ts';

const HASH = 'f'.repeat(64);

/** A file as the pre-release prototypes wrote it (version 0). */
function draftDocument() {
  return {
    format: 'weft.canvas',
    version: 0,
    canvas: { id: 'c1', name: 'Draft', workingDirectory: null, createdAt: 10 },
    nodes: [
      {
        id: 'q1',
        kind: 'question',
        createdAt: 10,
        position: { x: 0, y: 0 },
        archived: true,
        question: 'old question',
        currentVersionId: 'v1',
        versions: [
          {
            id: 'v1',
            text: 'old answer',
            question: 'old question',
            model: 'm',
            createdAt: 11,
            requestHash: null,
            upstreamFingerprint: HASH,
          },
        ],
      },
      { id: 'n1', kind: 'note', createdAt: 12, position: { x: 1, y: 1 }, archived: false, text: 'note' },
    ],
    wires: [{ id: 'w1', from: 'n1', to: 'q1', createdAt: 13, kind: 'dashed' }],
    attachments: [],
    log: [],
  };
}

describe('canvas migrations', () => {
  it('has one step per version, in order, ending at the current version', () => {
    CANVAS_MIGRATIONS.forEach((step, index) => {
      expect(step.from).toBe(index);
      expect(step.to).toBe(index + 1);
    });
    expect(CANVAS_MIGRATIONS.at(-1)!.to).toBe(CANVAS_VERSION);
  });

  it('draft-0-to-1 fills every field version 1 added, keeping the content', () => {
    expect(draftToVersionOne.migrate(draftDocument())).toMatchObject({
      version: 1,
      nodes: [{ versions: [{ upstreamParts: [] }] }, {}],
    });
    const result = migrateCanvasDocument(draftDocument());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.applied).toEqual([
      draftToVersionOne.name,
      partsToUpstreamRecords.name,
      eventsWithoutPrevHash.name,
      storedFormThreeToFour.name,
    ]);
    const [question, note] = result.document.nodes;
    expect(question).toMatchObject({
      kind: 'question',
      question: 'old question',
      archivedAt: 10,
      excludedParts: [],
      size: null,
      autoRerun: { enabled: false, rounds: 1 },
      model: null,
      attachments: [],
    });
    expect(question!.kind === 'question' && question!.versions[0]).toMatchObject({
      text: 'old answer',
      upstream: { base: null, parts: [], removed: [] },
      origin: 'generated',
      status: 'complete',
      branchOf: null,
    });
    expect(note).toMatchObject({ kind: 'note', text: 'note', archivedAt: null });
    expect(result.document.wires[0]).toMatchObject({ kind: 'dashed', depth: 'quote' });
    expect(result.document).toMatchObject({ version: CANVAS_VERSION, dismissals: [], ledgers: [], events: [] });
  });

  it('accepts a current document unchanged', () => {
    const first = migrateCanvasDocument(draftDocument());
    if (!first.ok) throw new Error('setup');
    const again = migrateCanvasDocument(JSON.parse(JSON.stringify(first.document)));
    expect(again.ok && again.applied).toEqual([]);
    expect(again.ok && again.document).toEqual(first.document);
  });

  it('refuses a file made by a newer Weft', () => {
    const result = migrateCanvasDocument({ ...draftDocument(), version: CANVAS_VERSION + 1 });
    expect(!result.ok && result.error.code).toBe('newer-version');
    expect(!result.ok && result.error.message).toMatch(/newer Weft/);
  });

  it('refuses foreign and corrupt files, naming the bad field', () => {
    for (const foreign of [null, 'text', [], { format: 'other' }]) {
      const result = migrateCanvasDocument(foreign);
      expect(!result.ok && result.error.code).toBe('not-a-canvas');
    }
    const corrupt = draftDocument();
    corrupt.nodes[0]!.versions![0]!.upstreamFingerprint = 'not-a-hash';
    const result = migrateCanvasDocument(corrupt);
    expect(!result.ok && result.error).toMatchObject({
      code: 'corrupt',
      path: 'nodes.0.versions.0.upstreamFingerprint',
    });
    expect(!result.ok && result.error.message).toMatch(/nodes\.0\.versions\.0\.upstreamFingerprint/);
    const noVersion = migrateCanvasDocument({ format: 'weft.canvas', version: 'one' });
    expect(!noVersion.ok && noVersion.error.code).toBe('corrupt');
  });

  it('parts-1-to-2 keeps every version’s parts while a chain answer stores only its parent’s', () => {
    const migrated = migrateCanvasDocument(chainVersionOne(40));
    if (!migrated.ok) throw new Error(migrated.error.message);
    expect(migrated.applied).toEqual([
      partsToUpstreamRecords.name,
      eventsWithoutPrevHash.name,
      storedFormThreeToFour.name,
    ]);
    const original = chainVersionOne(40);
    const versions = new Map<string, Version>();
    for (const node of migrated.document.nodes)
      if (node.kind === 'question')
        for (const version of node.versions) versions.set(`${node.id}/${version.id}`, version);
    const fold = (version: Version): unknown => {
      const chain = [version.upstream];
      for (let base = version.upstream.base; base;) {
        const next = versions.get(`${base.nodeId}/${base.versionId}`)!;
        chain.unshift(next.upstream);
        base = next.upstream.base;
      }
      return foldUpstream(chain);
    };
    original.nodes.forEach((node, index) => {
      node.versions.forEach((version, at) => {
        const after = (migrated.document.nodes[index] as { versions: Version[] }).versions[at]!;
        expect(after).not.toHaveProperty('upstreamParts');
        expect(fold(after)).toEqual(version.upstreamParts);
        // The second answer of q20 came after q19 changed: it rests on q19's newer answer, still one part.
        expect(after.upstream.parts.length + after.upstream.removed.length).toBeLessThanOrEqual(1);
      });
    });
    const bytes = (document: unknown) => JSON.stringify(document).length;
    expect(bytes(migrated.document)).toBeLessThan(bytes(original) / 3);
  });
});

/** A version-1 chain q0 → … → q{n-1}, each version listing every upstream part; q19 and q20 answered twice. */
function chainVersionOne(length: number) {
  const hash = (index: number, round = 0) => (index * 16 + round).toString(16).padStart(64, '0');
  const part = (index: number, round = 0) => ({
    nodeId: `q${index}`,
    hash: hash(index, round),
    opening: `question ${index}\nanswer ${index}.${round}`,
  });
  const version = (index: number, round: number, parts: unknown[]) => ({
    id: `v${index}.${round}`,
    text: `answer ${index}.${round}`,
    question: `question ${index}`,
    model: 'offline/receipt',
    createdAt: 1000 + index * 10 + round * 1000,
    requestHash: null,
    upstreamFingerprint: hash(index, 9),
    upstreamParts: parts,
    origin: 'generated',
    status: 'complete',
    branchOf: null,
  });
  const nodes = Array.from({ length }, (_, index) => {
    const below = Array.from({ length: index }, (__, upstream) => part(upstream));
    const versions = [version(index, 0, below)];
    if (index === 19) versions.push(version(index, 1, below));
    if (index === 20) versions.push(version(index, 1, [...below.slice(0, 19), part(19, 1)]));
    return {
      id: `q${index}`,
      kind: 'question' as const,
      createdAt: 1,
      position: { x: 0, y: index * 200 },
      size: null,
      archived: false,
      archivedAt: null,
      excludedParts: [],
      question: `question ${index}`,
      versions,
      currentVersionId: versions.at(-1)!.id,
      autoRerun: { enabled: false, rounds: 1 },
      model: null,
      attachments: [],
    };
  });
  const wires = nodes.slice(1).map((node, index) => ({
    id: `w${index}`,
    from: `q${index}`,
    to: node.id,
    createdAt: 2,
    kind: 'solid' as const,
  }));
  return {
    format: 'weft.canvas',
    version: 1,
    canvas: { id: 'chain', name: 'Chain', workingDirectory: null, createdAt: 1 },
    nodes,
    wires,
    attachments: [],
    dismissals: [],
    ledgers: [],
    events: [],
  } satisfies Omit<CanvasDocument, 'version' | 'nodes'> & { version: number; nodes: unknown[] };
}

describe('events-2-to-3', () => {
  // Hashes are stand-ins: the step only compares links, and the hash itself is checked by verifyChain later.
  const hash = (label: string) => label.repeat(64).slice(0, 64);
  const event = (id: string, prevHash: string, own: string) => ({
    id,
    at: 5,
    op: 'edit',
    objectId: 'n1',
    meta: { kind: 'note' },
    prevHash,
    hash: hash(own),
  });
  const versionTwo = (events: unknown[]) => ({ ...chainVersionOne(1), version: 2, nodes: [], wires: [], events });

  it('leaves out each prevHash that follows from the order; reading gives every event back as it was', () => {
    const events = [event('e1', '', 'a'), event('e2', hash('a'), 'b'), event('e3', hash('b'), 'c')];
    const stepped = eventsWithoutPrevHash.migrate(versionTwo(events));
    expect(stepped.version).toBe(3);
    expect((stepped.events as Record<string, unknown>[]).some((entry) => 'prevHash' in entry)).toBe(false);
    const result = migrateCanvasDocument(versionTwo(events));
    expect(result.ok && result.applied).toEqual([eventsWithoutPrevHash.name, storedFormThreeToFour.name]);
    expect(result.ok && result.document.events).toEqual(events);
  });

  it('keeps a prevHash that does not follow (a log starting mid-chain, a broken link), so verify sees the same log', () => {
    const events = [event('e1', hash('z'), 'a'), event('e2', hash('x'), 'b'), event('e3', hash('b'), 'c')];
    const stepped = eventsWithoutPrevHash.migrate(versionTwo(events));
    expect((stepped.events as Record<string, unknown>[]).map((entry) => entry.prevHash)).toEqual([
      hash('z'),
      hash('x'),
      undefined,
    ]);
    const result = migrateCanvasDocument(versionTwo(events));
    expect(result.ok && result.document.events).toEqual(events);
  });

  it('a malformed event is left for the schema to name', () => {
    const result = migrateCanvasDocument(versionTwo([event('e1', '', 'a'), { id: 'e2', at: 5 }]));
    expect(!result.ok && result.error).toMatchObject({ code: 'corrupt', path: 'events.1.op' });
  });
});
