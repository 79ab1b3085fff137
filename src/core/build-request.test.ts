import { describe, expect, it } from 'vitest';
import { CanonicalRequestSchema } from '../../protocol/dispatch-request.ts';
import { buildRequest, imagePlaceholder } from './build-request.ts';
import { hashCanonical } from './hashing.ts';
import { TestCanvas } from './test-canvas.ts';

const IMAGE = 'c'.repeat(64);

function canvasWithImage() {
  const canvas = new TestCanvas();
  canvas.apply({
    type: 'add-attachment',
    attachment: { hash: IMAGE, mediaType: 'image/png', name: 'plot.png', byteLength: 3, dataBase64: 'AAAA' },
  });
  const parent = canvas.addQuestion('look at this', { attachments: [IMAGE] });
  canvas.answer(parent, 'a plot');
  const target = canvas.addQuestion('and now?');
  canvas.wire(parent, target);
  return { canvas, target };
}

describe('buildRequest (C9)', () => {
  it('hashes the canonical request: same inputs, same hash; any change, a new hash', () => {
    const { canvas, target } = canvasWithImage();
    const compiled = canvas.compiled(target);
    const first = buildRequest(compiled, { model: 'm', tools: { webSearch: false } });
    const again = buildRequest(canvas.compiled(target), { model: 'm', tools: { webSearch: false } });
    expect(CanonicalRequestSchema.parse(first.request)).toEqual(first.request);
    expect(first.requestHash).toBe(again.requestHash);
    expect(first.requestHash).toBe(hashCanonical(first.request));
    expect(buildRequest(compiled, { model: 'other', tools: { webSearch: false } }).requestHash).not.toBe(
      first.requestHash,
    );
    expect(buildRequest(compiled, { model: 'm', tools: { webSearch: true } }).requestHash).not.toBe(first.requestHash);
  });

  it('inserts memory and recall blocks just before the question, and hashes them', () => {
    const { canvas, target } = canvasWithImage();
    const compiled = canvas.compiled(target);
    const plain = buildRequest(compiled, { model: 'm' });
    const withBlocks = buildRequest(compiled, {
      model: 'm',
      memoryBlock: '[Memory]\nprefers SI units',
      recallBlock: '[Recall]\nexcerpt',
    });
    const texts = withBlocks.request.messages.map((message) =>
      message.content[0]!.type === 'text' ? message.content[0]!.text : '',
    );
    expect(texts.slice(-3)).toEqual(['[Memory]\nprefers SI units', '[Recall]\nexcerpt', 'and now?']);
    // The preview labels each late block as its own part; compiled messages keep their index.
    const last = compiled.messages.length - 1;
    expect(withBlocks.messageSources.slice(-3)).toEqual([
      { kind: 'late', source: 'profile' },
      { kind: 'late', source: 'recall' },
      { kind: 'compiled', index: last },
    ]);
    expect(buildRequest(compiled, { model: 'm', system: 's' }).messageSources[0]).toEqual({
      kind: 'late',
      source: 'system',
    });
    expect(withBlocks.request.messages).toHaveLength(plain.request.messages.length + 2);
    expect(withBlocks.requestHash).not.toBe(plain.requestHash);
    expect(withBlocks.commit).toEqual({
      op: 'commit',
      objectId: target,
      meta: {
        requestHash: withBlocks.requestHash,
        messageCount: compiled.messages.length + 2,
        model: 'm',
        lane: 'chat',
      },
    });
  });

  it('puts a system block first and hashes it', () => {
    const { canvas, target } = canvasWithImage();
    const compiled = canvas.compiled(target);
    const plain = buildRequest(compiled, { model: 'm' });
    const withSystem = buildRequest(compiled, { model: 'm', system: 'You are terse.' });
    expect(withSystem.request.messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'You are terse.' }],
    });
    expect(withSystem.request.messages.slice(1)).toEqual(plain.request.messages);
    expect(withSystem.requestHash).not.toBe(plain.requestHash);
  });

  it('sends images as digests, or a named placeholder for a model without vision', () => {
    const { canvas, target } = canvasWithImage();
    const compiled = canvas.compiled(target);
    const vision = buildRequest(compiled, { model: 'm' });
    expect(vision.request.messages[0]!.content[1]).toEqual({ type: 'image', hash: IMAGE, mediaType: 'image/png' });
    const blind = buildRequest(compiled, { model: 'm', images: false, lane: 'replay' });
    expect(blind.request.messages[0]!.content[1]).toEqual({ type: 'text', text: imagePlaceholder(IMAGE, 'image/png') });
    expect(blind.requestHash).not.toBe(vision.requestHash);
    expect(blind.commit.meta.lane).toBe('replay');
  });

  it('dispatch writes the commit event with the same hash the preview shows', () => {
    const { canvas, target } = canvasWithImage();
    const preview = buildRequest(canvas.compiled(target), { model: 'test/model', memoryBlock: 'm' });
    const sent = canvas.dispatch(target, { memoryBlock: 'm' });
    expect(sent.requestHash).toBe(preview.requestHash);
    expect(canvas.graph.events.at(-1)!.meta.requestHash).toBe(preview.requestHash);
  });
});
