import { describe, expect, it } from 'vitest';
import { CanonicalRequestSchema, ModelSetSchema, type ModelSet } from '../../protocol/index.ts';
import { imagePlaceholder } from './build-request.ts';
import { contextHash } from './context-hash.ts';
import { hashCanonical } from './hashing.ts';
import { setCapRefusal, setEstimate } from './set-estimate.ts';
import { setLimits, type SetModel } from './set-limits.ts';
import { setRequests } from './set-requests.ts';
import { TestCanvas } from './test-canvas.ts';

const IMAGE = 'c'.repeat(64);
const MODELS: SetModel[] = [
  { id: 'openai/big', label: 'Big', contextWindow: 128_000, takesImages: true },
  { id: 'local/small', label: 'Small', contextWindow: 8_192, takesImages: true },
  { id: 'anthropic/blind', label: 'Blind', contextWindow: 200_000, takesImages: false },
];

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
  return { compiled: canvas.compiled(target) };
}

const set = (models: string[], samples = 2): ModelSet => ModelSetSchema.parse({ models, samples, temperature: 0.7 });

describe('setLimits (issue 31)', () => {
  it('compiles for the smallest window and takes images only when every model does, naming who set each', () => {
    const limits = setLimits(set(MODELS.map((model) => model.id)), MODELS);
    expect(limits).toMatchObject({
      ok: true,
      value: { contextWindow: 8_192, windowSetBy: 'local/small', images: false, imagesSetBy: 'anthropic/blind' },
    });
    if (!limits.ok) return;
    expect(limits.value.sentence).toContain('Small set the window (8,192 tokens)');
    expect(limits.value.sentence).toContain('Blind takes no images');
    const seeing = setLimits(set(['openai/big', 'local/small']), MODELS);
    expect(seeing.ok && seeing.value.images).toBe(true);
  });

  it('refuses an agent lane, an unknown model and a model named twice', () => {
    expect(setLimits({ models: ['openai/big', 'agent:pi'] }, MODELS)).toMatchObject({ ok: false });
    expect(setLimits({ models: ['openai/big', 'nowhere/x'] }, MODELS)).toMatchObject({ ok: false });
    expect(setLimits({ models: ['openai/big', 'openai/big'] }, MODELS)).toMatchObject({ ok: false });
  });
});

describe('setRequests (issue 31)', () => {
  it('gives every answer one context hash and each model its own request hash; samples repeat their model’s', () => {
    const { compiled } = canvasWithImage();
    const models = MODELS.map((model) => model.id);
    const built = setRequests(compiled, set(models), { images: false }, { setId: 'set-1' });
    expect(built.dispatches).toHaveLength(6);
    expect(new Set(built.dispatches.map((each) => each.requestHash)).size).toBe(3);
    for (const dispatch of built.dispatches) {
      expect(CanonicalRequestSchema.parse(dispatch.request)).toEqual(dispatch.request);
      expect(dispatch.requestHash).toBe(hashCanonical(dispatch.request));
      expect(contextHash(dispatch.request)).toBe(built.contextHash);
      expect(dispatch.request.temperature).toBe(0.7);
      expect(dispatch.commit.meta).toMatchObject({ requestHash: dispatch.requestHash, contextHash: built.contextHash });
      expect(dispatch.setAnswer).toMatchObject({ setId: 'set-1', model: dispatch.request.model, temperature: 0.7 });
    }
    expect(built.dispatches.map((each) => [each.setAnswer.model, each.setAnswer.sample])).toEqual(
      models.flatMap((model) => [
        [model, 1],
        [model, 2],
      ]),
    );
    // The image went as a placeholder for every model, not only for the one that takes none.
    expect(JSON.stringify(built.dispatches[0]!.request.messages)).toContain(imagePlaceholder(IMAGE, 'image/png'));
    expect(built.summary).toBe(`6 answers, one context: ${built.contextHash.slice(0, 12)}…`);
  });

  it('changes the request hash, not the context hash, with the temperature', () => {
    const { compiled } = canvasWithImage();
    const cold = setRequests(compiled, { ...set(['a/x', 'b/y']), temperature: 0 }, { images: true }, { setId: 's' });
    const warm = setRequests(compiled, { ...set(['a/x', 'b/y']), temperature: 1 }, { images: true }, { setId: 's' });
    expect(cold.contextHash).toBe(warm.contextHash);
    expect(cold.dispatches[0]!.requestHash).not.toBe(warm.dispatches[0]!.requestHash);
  });
});

describe('setEstimate and the per-ask cap (issue 31)', () => {
  const prices: Record<string, number | null> = { 'a/x': 2, 'b/y': 10, 'local/z': null };
  it('prices each model’s samples and the total', () => {
    const estimate = setEstimate({ models: ['a/x', 'b/y'], samples: 3 }, 1_000, (model) => prices[model] ?? null);
    expect(estimate.count).toBe(6);
    expect(estimate.perModel.map((each) => each.price)).toEqual([0.006, 0.03]);
    expect(estimate.price).toBeCloseTo(0.036, 10);
    expect(estimate.inputTokens).toBe(6_000);
  });

  it('refuses an ask over the cap, or of unknown price, with the words why; a local model is free', () => {
    const estimate = setEstimate({ models: ['a/x', 'b/y'], samples: 3 }, 1_000, (model) => prices[model] ?? null);
    expect(setCapRefusal(estimate, null, () => false)).toBeNull();
    expect(setCapRefusal(estimate, 0.05, () => false)).toBeNull();
    expect(setCapRefusal(estimate, 0.01, () => false)).toBe(
      '6 requests would cost about $0.04, over the cap of $0.01 per ask (Settings).',
    );
    const local = setEstimate({ models: ['a/x', 'local/z'], samples: 1 }, 1_000, (model) => prices[model] ?? null);
    expect(setCapRefusal(local, 0.01, () => false)).toContain('The price of local/z is unknown');
    expect(setCapRefusal(local, 0.01, (model) => model.startsWith('local/'))).toBeNull();
  });
});
