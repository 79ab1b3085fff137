import { describe, expect, it } from 'vitest';
import { CanvasDocumentSchema } from '../../protocol/canvas-stored-form.ts';
import { applyChange } from './apply-change.ts';
import { compile } from './compile.ts';
import { STALE_MARK } from './compiled-context.ts';
import { demoCanvas } from './demo-canvas.ts';
import { verifyChain } from './event-log.ts';
import { documentFromGraph, graphFromDocument } from './graph.ts';
import { canonicalJson } from './hashing.ts';
import { loadCanvas } from './load-canvas.ts';
import { shownStale } from './shown-stale.ts';
import { computeStaleFull } from './stale-tracker.ts';

function make() {
  let counter = 0;
  return demoCanvas(1_780_000_000_000, () => `demo-${++counter}`);
}

describe('demoCanvas', () => {
  it('is a valid, deterministic version 1 document that loads and round-trips', () => {
    const document = make();
    expect(CanvasDocumentSchema.parse(document)).toEqual(document);
    expect(canonicalJson(make())).toBe(canonicalJson(document));
    expect(loadCanvas(JSON.parse(JSON.stringify(document))).ok).toBe(true);
    expect(canonicalJson(documentFromGraph(graphFromDocument(document)))).toBe(canonicalJson(document));
    expect(verifyChain(document.events)).toBeNull();
  });

  it('teaches every concept by using it', () => {
    const document = make();
    const kinds = document.nodes.map((node) => node.kind);
    expect(kinds.filter((kind) => kind === 'material')).toHaveLength(2);
    expect(kinds).toContain('frame');
    expect(kinds).toContain('note');
    const provenances = document.nodes.flatMap((node) => (node.kind === 'material' ? [node.provenance.type] : []));
    expect(provenances.sort()).toEqual(['pasted', 'url']);
    const depths = document.wires.flatMap((wire) => (wire.kind === 'dashed' ? [wire.depth] : []));
    expect(depths.sort()).toEqual(['full', 'quote']);
    const versions = document.nodes.flatMap((node) => (node.kind === 'question' ? node.versions : []));
    expect(versions.length).toBeGreaterThan(3);
    expect(versions.every((version) => version.origin === 'demo')).toBe(true);
    expect(document.nodes.filter((node) => node.archived)).toHaveLength(1);
  });

  it('has exactly one stale answer, marked in the context below it, and skips the archived node', () => {
    const document = make();
    const graph = graphFromDocument(document);
    const state = computeStaleFull(graph);
    expect(state.stale.size).toBe(1);
    const [staleId] = [...state.stale];
    const sunset = graph.nodes.get(staleId!)!;
    expect(sunset.kind === 'question' && sunset.question).toMatch(/sunset/);
    const archived = document.nodes.find((node) => node.archived)!;
    const compiled = compile(graph, staleId!, { stale: shownStale(graph, state) });
    const text = JSON.stringify(compiled.messages);
    expect(text).not.toContain(archived.kind === 'question' ? archived.question : '?');
    expect(compiled.sources.map((source) => source.layer)).toEqual([
      'materials',
      'materials',
      'references',
      'references',
      'chain',
      'chain',
      'chain',
      'chain',
      'chain',
      'question',
    ]);
    // A question asked below the stale answer receives it with the mark.
    const below = applyChange(
      graph,
      {
        type: 'batch',
        changes: [
          { type: 'add-node', node: { kind: 'question', question: 'And at dusk?', id: 'below' } },
          { type: 'wire', from: staleId!, to: 'below', kind: 'solid' },
        ],
      },
      { now: 1_780_000_100_000, newId: () => 'w-below' },
    );
    if (!below.ok) throw below.error;
    const downstream = compile(below.value.graph, 'below', { stale: shownStale(graph, state) });
    const answer = downstream.messages[downstream.messages.length - 2]!.content[0]!;
    expect(answer.type === 'text' && answer.text.startsWith(`${STALE_MARK}\n`)).toBe(true);
  });
});
