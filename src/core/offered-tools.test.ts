import { describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../protocol/canvas-document.ts';
import { CanvasDocumentSchema } from '../../protocol/canvas-stored-form.ts';
import { buildRequest } from './build-request.ts';
import { CHAT_TOOLS } from './chat-tools.ts';
import { mcpDeclarations } from './mcp-declarations.ts';
import { canvasAllowsTools, offeredTools } from './offered-tools.ts';
import { TestCanvas } from './test-canvas.ts';

const [ECHO] = mcpDeclarations('echo', [
  { name: 'echo', description: 'Repeats.', inputSchema: { type: 'object', properties: {} } },
]).tools;

function requestOf(canvas: TestCanvas, nodeId: string) {
  const node = canvas.graph.nodes.get(nodeId) as QuestionNode;
  const offered = offeredTools(canvas.graph.canvas, node);
  return {
    offered,
    built: buildRequest(canvas.compiled(nodeId), {
      model: 'm',
      chatTools: offered.chatTools,
      mcpTools: offered.mcpTools,
    }),
  };
}

describe('the per-canvas tools switch (C35)', () => {
  it('is off by default: a node’s tools are offered only once its canvas allows them, and the hash follows', () => {
    const canvas = new TestCanvas();
    const node = canvas.addQuestion('Find papers on tools.');
    const plain = requestOf(canvas, node).built;
    expect(canvasAllowsTools(canvas.graph.canvas)).toBe(false);

    canvas.edit(node, { tools: ['scholarly-search'], mcpTools: [ECHO!] });
    const blocked = requestOf(canvas, node);
    expect(blocked.offered.blockedByCanvas).toBe(true);
    expect(blocked.built.request.toolDeclarations).toBeUndefined();
    expect(blocked.built.request.tools).toEqual({});
    expect(blocked.built.requestHash).toBe(plain.requestHash);

    canvas.apply({ type: 'set-canvas-tools', allowed: true });
    const allowed = requestOf(canvas, node);
    expect(allowed.offered.blockedByCanvas).toBe(false);
    expect(allowed.built.request.toolDeclarations).toEqual([CHAT_TOOLS['scholarly-search'].declaration, ECHO]);
    expect(allowed.built.requestHash).not.toBe(plain.requestHash);

    canvas.apply({ type: 'set-canvas-tools', allowed: false });
    expect(requestOf(canvas, node).built.requestHash).toBe(plain.requestHash);
    // A node with no tools on is never "blocked": there is nothing to block.
    expect(offeredTools(canvas.graph.canvas, { tools: [], mcpTools: [] }).blockedByCanvas).toBe(false);
  });

  it('each change is an event, the switch is kept in the document, and it marks nothing stale', () => {
    const canvas = new TestCanvas();
    const node = canvas.addQuestion('Q');
    canvas.answer(node, 'A');
    canvas.apply({ type: 'set-canvas-tools', allowed: true });
    expect(canvas.graph.events.at(-1)).toMatchObject({ op: 'canvas-tools', meta: { allowed: true } });
    expect(CanvasDocumentSchema.parse(canvas.document()).canvas.toolsAllowed).toBe(true);
    expect(canvas.staleIds()).toEqual([]);
    const refused = canvas.tryApply({ type: 'set-canvas-tools', allowed: 'yes' as unknown as boolean });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });
});
