import { describe, expect, it } from 'vitest';
import { CONTEXT_BUNDLE_FORMAT, readContextBundle } from './context-bundle.ts';

const valid = {
  format: CONTEXT_BUNDLE_FORMAT,
  version: 1,
  canvasId: 'c',
  nodeId: 'n',
  model: 'm',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
  sources: [{ nodeId: 'n', layer: 'question', part: 'question', partId: 'n:question', contentPartIds: ['n:question'] }],
  requestHash: 'a'.repeat(64),
  createdAt: 1,
};

describe('readContextBundle', () => {
  it('reads a version 1 bundle', () => {
    expect(readContextBundle(JSON.parse(JSON.stringify(valid)))).toEqual({ ok: true, bundle: valid });
  });

  it('refuses foreign, newer and corrupt bundles with a reason', () => {
    expect(readContextBundle({ format: 'weft.canvas' })).toMatchObject({ ok: false, error: { code: 'not-a-bundle' } });
    expect(readContextBundle({ ...valid, version: 2 })).toMatchObject({ ok: false, error: { code: 'newer-version' } });
    expect(readContextBundle({ ...valid, requestHash: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'corrupt', path: 'requestHash' },
    });
  });
});
