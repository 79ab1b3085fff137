import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashCanonical } from './hashing.ts';
import { TestCanvas } from './test-canvas.ts';

/**
 * Whatever a node, a file or a paste holds, compile gives a request that hashes and dispatch
 * never throws: lone surrogates, surrogate pairs at cut points, unshowable times.
 */
const IMAGE_A = 'a'.repeat(64);

function texts(canvas: TestCanvas, nodeId: string): string[] {
  return canvas
    .compiled(nodeId)
    .messages.map((message) =>
      message.content.map((part) => (part.type === 'text' ? part.text : `<image ${part.hash.slice(0, 4)}>`)).join('|'),
    );
}

describe('compile robustness', () => {
  it('replaces lone surrogates so the request can always be hashed', () => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('broken \ud800 text');
    const target = canvas.addQuestion('T');
    canvas.wire(parent, target);
    expect(texts(canvas, target)[0]).toBe('broken \ufffd text');
    expect(() => canvas.dispatch(target)).not.toThrow();
  });
});

describe('attachments stay hashable', () => {
  it('sends an attachment whose stored media type holds a lone surrogate, with U+FFFD in its place', () => {
    const attachment = { hash: IMAGE_A, mediaType: 'image/\ud800', name: 'x', byteLength: 1, dataBase64: 'AA==' };
    // applyChange refuses it (its event could not be hashed), but a file can hold one.
    expect(new TestCanvas().tryApply({ type: 'add-attachment', attachment }).ok).toBe(false);
    const document = new TestCanvas().document();
    const canvas = new TestCanvas({ document: { ...document, attachments: [attachment] } });
    const target = canvas.addQuestion('T', { attachments: [IMAGE_A] });
    expect(canvas.compiled(target).messages.at(-1)!.content[1]).toEqual({
      type: 'image',
      hash: IMAGE_A,
      mediaType: 'image/\ufffd',
    });
    const built = canvas.dispatch(target);
    expect(built.requestHash).toBe(hashCanonical(built.request));
  });
});

describe('reference blocks stay hashable', () => {
  it('cuts a long trail question before an emoji, never through its surrogate pair', () => {
    const canvas = new TestCanvas();
    const upstream = canvas.addQuestion(`${'x'.repeat(78)}😀 and more`);
    canvas.answer(upstream, 'a');
    const source = canvas.addQuestion('S');
    canvas.answer(source, 'sa');
    canvas.wire(upstream, source);
    const target = canvas.addQuestion('T');
    canvas.wire(source, target, 'quote');
    expect(texts(canvas, target)[0]).toContain(`Trail: ${'x'.repeat(78)}…`);
    expect(canvas.dispatch(target).requestHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('replaces a lone surrogate in a note inside a full reference, as everywhere else', () => {
    const canvas = new TestCanvas();
    const note = canvas.addNote('bad \ud800 note');
    const source = canvas.addQuestion('S');
    canvas.answer(source, 'sa');
    canvas.wire(note, source);
    const target = canvas.addQuestion('T');
    canvas.wire(source, target, 'full');
    expect(texts(canvas, target)[0]).toContain('Note: bad \ufffd note');
    expect(canvas.dispatch(target).requestHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('crafted times', () => {
  it('compiles a URL material whose fetch time no Date can show instead of throwing', () => {
    const canvas = new TestCanvas();
    const page = canvas.addMaterial('A page', 'Body.', {
      type: 'url',
      url: 'https://example.org/a',
      finalUrl: 'https://example.org/a',
      fetchedAt: 9e15,
      title: 'A page',
    });
    const target = canvas.addQuestion('Q?');
    canvas.wire(page, target);
    expect(texts(canvas, target)[0]).toContain('snapshot fetched at 9000000000000000 ms');
  });
});

describe('any text can be sent', () => {
  it('compiles and hashes every request whatever UTF-16 the nodes hold, through every layer and reference depth', () => {
    // Any code unit (lone surrogates included) and astral characters, in texts long enough to be cut for a trail.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('😀', '\ud83d', '\ude00', '`', '\n', ' '),
    );
    const text = fc.string({ unit, maxLength: 120 });
    const spec = fc.record({
      nodes: fc.array(
        fc.record({ kind: fc.constantFrom('question', 'note', 'material'), text, answer: fc.option(text) }),
        { minLength: 2, maxLength: 7 },
      ),
      wires: fc.array(
        fc.record({
          from: fc.nat(),
          to: fc.nat(),
          kind: fc.constantFrom<'solid' | 'quote' | 'full'>('solid', 'quote', 'full'),
        }),
        { maxLength: 12 },
      ),
    });
    fc.assert(
      fc.property(spec, ({ nodes, wires }) => {
        const canvas = new TestCanvas();
        const ids = nodes.map((node) => {
          if (node.kind === 'note') return canvas.addNote(node.text);
          if (node.kind === 'material') return canvas.addMaterial(node.text, node.text);
          const id = canvas.addQuestion(node.text);
          if (node.answer !== null) canvas.answer(id, node.answer);
          return id;
        });
        for (const wire of wires) {
          // Only forward wires (lower index into higher), so the canvas stays acyclic.
          const from = wire.from % ids.length;
          const to = wire.to % ids.length;
          if (from >= to || nodes[to]!.kind !== 'question') continue;
          canvas.tryApply(
            wire.kind === 'solid'
              ? { type: 'wire', from: ids[from]!, to: ids[to]!, kind: 'solid' }
              : { type: 'wire', from: ids[from]!, to: ids[to]!, kind: 'dashed', depth: wire.kind },
          );
        }
        nodes.forEach((node, index) => {
          if (node.kind !== 'question') return;
          const built = canvas.dispatch(ids[index]!);
          expect(built.requestHash).toBe(hashCanonical(built.request));
        });
      }),
      { numRuns: 150 },
    );
  });
});
