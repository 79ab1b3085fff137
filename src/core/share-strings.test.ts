import { describe, expect, it } from 'vitest';
import type { CanvasDocument } from '../../protocol/index.ts';
import { chainCanvas } from '../../tests/support/chain-canvas.ts';
import { verifyChain } from './event-log.ts';
import { graphFromDocument } from './graph.ts';
import { canonicalJson } from './hashing.ts';
import { shareRepeatedStrings } from './share-strings.ts';
import { computeStaleFull } from './stale-tracker.ts';

/** The canvas as the page gets it: parsed from its JSON text (IndexedDB's packs, the server's read). */
const parsed = (document: CanvasDocument) => JSON.parse(JSON.stringify(document)) as CanvasDocument;

describe('shareRepeatedStrings', () => {
  it('leaves every value of a parsed canvas as it was: the record, its event chain and its staleness', () => {
    const document = chainCanvas('share', 3, 6);
    const before = parsed(document);
    const shared = shareRepeatedStrings(parsed(document));
    expect(canonicalJson(shared)).toBe(canonicalJson(before));
    expect(shared.events.length).toBeGreaterThan(30);
    expect(verifyChain(shared.events)).toBeNull();
    expect(computeStaleFull(graphFromDocument(shared))).toEqual(computeStaleFull(graphFromDocument(before)));
  });

  it('keeps a broken chain broken at the same event (a prevHash is only reused where it already matched)', () => {
    const broken = parsed(chainCanvas('share', 2, 4));
    broken.events[5]!.prevHash = 'f'.repeat(64);
    const at = verifyChain(broken.events);
    expect(at).toBe(5);
    expect(verifyChain(shareRepeatedStrings(parsed(broken)).events)).toBe(at);
  });

  it('keeps a meta value under an own __proto__ key (JSON.parse makes one) as a key with its value', () => {
    const document = parsed(chainCanvas('share', 1, 2));
    const text = JSON.stringify(document).replace('"meta":{', '"meta":{"__proto__":"kept",');
    const shared = shareRepeatedStrings(JSON.parse(text) as CanvasDocument);
    expect(canonicalJson(shared)).toBe(canonicalJson(JSON.parse(text)));
    expect(Object.getOwnPropertyDescriptor(shared.events[0]!.meta, '__proto__')?.value).toBe('kept');
  });
});
