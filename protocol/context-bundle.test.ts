import { describe, expect, it } from 'vitest';
import { bundleRequest, CONTEXT_BUNDLE_FORMAT, CONTEXT_BUNDLE_VERSION, readContextBundle } from './context-bundle.ts';

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

  it('reads a version 2 bundle with a recall part and the tools its hash covers', () => {
    const declaration = { name: 'web_search', description: 'Search the web.', inputSchema: { type: 'object' } };
    const recall = { nodeId: 'n', layer: 'recall', part: 'recall', partId: 'recall', contentPartIds: [] };
    const second = {
      ...valid,
      version: 2,
      messages: [valid.messages[0], ...valid.messages],
      sources: [recall, ...valid.sources],
      tools: { webSearch: true },
      toolDeclarations: [declaration],
    };
    const read = readContextBundle(JSON.parse(JSON.stringify(second)));
    expect(read).toEqual({ ok: true, bundle: second });
    if (!read.ok) throw new Error(read.error.message);
    expect(bundleRequest(read.bundle)).toEqual({
      model: 'm',
      messages: second.messages,
      tools: { webSearch: true },
      toolDeclarations: [declaration],
    });
    // A version 1 bundle has no tools: its request is the one version 1 hashed.
    const first = readContextBundle(valid);
    if (!first.ok) throw new Error(first.error.message);
    expect(bundleRequest(first.bundle)).toEqual({ model: 'm', messages: valid.messages, tools: {} });
  });

  it('refuses foreign, newer and corrupt bundles with a reason', () => {
    expect(readContextBundle({ format: 'weft.canvas' })).toMatchObject({ ok: false, error: { code: 'not-a-bundle' } });
    expect(readContextBundle({ ...valid, version: CONTEXT_BUNDLE_VERSION + 1 })).toMatchObject({
      ok: false,
      error: { code: 'newer-version' },
    });
    expect(readContextBundle({ ...valid, requestHash: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'corrupt', path: 'requestHash' },
    });
  });
});
