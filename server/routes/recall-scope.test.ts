import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_SETTING, type RecallPlanRequest, type RecallPlanResponse } from '../../protocol/index.ts';
import { emptyCanvasDocument, TestCanvas } from '../../src/core/index.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';

/**
 * Issue 27.3, as a hostile client holding the token: recall's project scope and its "every project" switch are
 * read from the stored canvas and node. A body naming another project's folder, or `global: true` for a node
 * whose stored setting says nothing of it, gets none of another project's turns.
 */
const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';
const CODEX_REPO = '/tmp/realsessions/out/codex/basic-tools/repo';

describe('recall scope comes from the stored record', () => {
  const atlas = withAtlasServer({ prefix: 'weft-recall-scope-' });

  async function storeCanvas(id: string, global: boolean | null): Promise<string> {
    const canvas = new TestCanvas({
      idPrefix: `${id}-n`,
      document: emptyCanvasDocument({ id, name: `Canvas ${id}`, workingDirectory: CLAUDE_REPO, createdAt: 1 }),
    });
    const nodeId = canvas.addQuestion('How was the greet function in hello.ts written?');
    const document = canvas.document();
    const nodes = document.nodes.map((node) =>
      node.id === nodeId && node.kind === 'question' && global !== null
        ? { ...node, recall: { ...DEFAULT_RECALL_SETTING, enabled: true, global } }
        : node,
    );
    await atlas.server.context.canvases.write(id, { ...document, nodes }, { baseRevision: null });
    return nodeId;
  }

  const body = (canvasId: string, nodeId: string, overrides: Partial<RecallPlanRequest> = {}): RecallPlanRequest => ({
    question: 'How was the greet function in hello.ts written?',
    canvasId,
    nodeId,
    workingDirectory: CLAUDE_REPO,
    setting: { ...DEFAULT_RECALL_SETTING, enabled: true },
    contextWindow: 200_000,
    ...overrides,
  });

  const post = (path: string, request: unknown) =>
    atlas.server.api(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });

  async function refused(request: RecallPlanRequest): Promise<void> {
    for (const path of ['/api/recall/plan', '/api/recall/reach']) {
      const response = await post(path, request);
      expect(response.status).toBe(409);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'recall-scope-unsaved' } });
      expect(text).not.toContain('codex');
    }
  }

  it('refuses another project’s folder in the body', async () => {
    const nodeId = await storeCanvas('scope-folder', null);
    await refused(body('scope-folder', nodeId, { workingDirectory: CODEX_REPO }));
    await refused(body('scope-folder', nodeId, { workingDirectory: null }));
    // An unknown canvas has no scope at all.
    await refused(body('never-stored', nodeId));
  });

  it('refuses `global: true` for a node whose stored setting does not say so', async () => {
    const nodeId = await storeCanvas('scope-global', false);
    const widened = { ...DEFAULT_RECALL_SETTING, enabled: true, global: true };
    await refused(body('scope-global', nodeId, { setting: widened }));
    const unset = await storeCanvas('scope-unset', null);
    await refused(body('scope-unset', unset, { setting: widened }));
    const { nodeId: _, ...withoutNode } = body('scope-unset', unset, { setting: widened });
    await refused(withoutNode);
  });

  it('refuses inferred items (#29) for a node whose saved memory reading does not read them', async () => {
    const nodeId = await storeCanvas('scope-inferred', false);
    const reading = { includeInferred: true, asOf: null };
    await refused(body('scope-inferred', nodeId, { memoryReading: reading }));
    const { nodeId: _, ...withoutNode } = body('scope-inferred', nodeId, { memoryReading: reading });
    await refused(withoutNode);
    // A narrower body (the switch off) is honoured.
    const narrower = await post(
      '/api/recall/plan',
      body('scope-inferred', nodeId, { memoryReading: { ...reading, includeInferred: false } }),
    );
    expect(narrower.status).toBe(200);
  });

  it('refuses an "as of" date (#29.4) other than the one the saved node holds', async () => {
    const nodeId = await storeCanvas('scope-as-of', false);
    const dated = { includeInferred: false, asOf: Date.UTC(2026, 0, 1) };
    await refused(body('scope-as-of', nodeId, { memoryReading: dated }));
    const { nodeId: _, ...withoutNode } = body('scope-as-of', nodeId, { memoryReading: dated });
    await refused(withoutNode);
    // The node reads memory as it is now: a body saying so is honoured.
    const now = await post(
      '/api/recall/plan',
      body('scope-as-of', nodeId, { memoryReading: { ...dated, asOf: null } }),
    );
    expect(now.status).toBe(200);
  });

  it('answers the stored scope: the project only, or every project when the stored node says so', async () => {
    const scopedNode = await storeCanvas('scope-ok', false);
    const scoped = (await (await post('/api/recall/plan', body('scope-ok', scopedNode))).json()) as RecallPlanResponse;
    expect(scoped.scope).toBe(CLAUDE_REPO);
    expect(scoped.items.map((item) => item.runner)).not.toContain('codex');

    const globalNode = await storeCanvas('scope-everywhere', true);
    const everywhere = { ...DEFAULT_RECALL_SETTING, enabled: true, global: true };
    const response = await post('/api/recall/plan', body('scope-everywhere', globalNode, { setting: everywhere }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as RecallPlanResponse).scope).toBeNull();
  });
});
