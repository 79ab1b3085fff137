import { describe, expect, it } from 'vitest';
import { MCP_SCHEMA_MAX_CHARS, MCP_TOOLS_PER_SERVER_MAX } from '../../protocol/mcp-tools.ts';
import { QuestionNodeSchema } from '../../protocol/canvas-document.ts';
import { buildRequest } from './build-request.ts';
import { CHAT_TOOLS, declaredChatTools } from './chat-tools.ts';
import { declaredMcpTools, mcpDeclarations, mcpServerOf } from './mcp-declarations.ts';
import { TestCanvas } from './test-canvas.ts';

const ECHO = {
  name: 'echo',
  description: 'Repeats the text it is given.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

function question() {
  const canvas = new TestCanvas();
  const node = canvas.addQuestion('Repeat hello.');
  return { canvas, node };
}

describe('MCP tool declarations (C35)', () => {
  it('names each tool by its server, passes its schema through, and bounds count, names and schema size', () => {
    const many = Array.from({ length: MCP_TOOLS_PER_SERVER_MAX + 3 }, (_, index) => ({ ...ECHO, name: `t${index}` }));
    const huge = {
      ...ECHO,
      name: 'huge',
      inputSchema: { type: 'object', description: 'x'.repeat(MCP_SCHEMA_MAX_CHARS) },
    };
    const { tools, skipped } = mcpDeclarations('files', [
      ECHO,
      { ...ECHO, name: 'read.file' },
      { ...ECHO, name: 'echo' },
      { ...ECHO, name: 'n'.repeat(70) },
      huge,
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['files__echo', 'files__read_file']);
    expect(tools[0]).toEqual({ ...ECHO, name: 'files__echo' });
    expect(skipped.map((skip) => skip.tool)).toEqual(['echo', 'n'.repeat(70), 'huge']);
    expect(mcpDeclarations('s', many).tools).toHaveLength(MCP_TOOLS_PER_SERVER_MAX);
    expect(mcpServerOf('files__read_file')).toBe('files');
  });

  it('a node’s MCP tools follow Weft’s own in the request, and the hash moves when a declaration changes', () => {
    const { canvas, node } = question();
    const [echo] = mcpDeclarations('echo', [ECHO]).tools;
    const off = buildRequest(canvas.compiled(node), { model: 'm' });
    const on = buildRequest(canvas.compiled(node), { model: 'm', chatTools: ['arxiv-search'], mcpTools: [echo!] });
    expect(on.request.toolDeclarations).toEqual([CHAT_TOOLS['arxiv-search'].declaration, echo]);
    expect(on.request.tools).toEqual({ arxivSearch: true });
    expect(on.requestHash).not.toBe(off.requestHash);
    const changed = { ...echo!, description: 'Repeats it twice.' };
    const again = buildRequest(canvas.compiled(node), { model: 'm', chatTools: ['arxiv-search'], mcpTools: [changed] });
    expect(again.requestHash).not.toBe(on.requestHash);
    const schema = { ...echo!, inputSchema: { ...echo!.inputSchema, required: [] } };
    expect(buildRequest(canvas.compiled(node), { model: 'm', mcpTools: [schema] }).requestHash).not.toBe(
      buildRequest(canvas.compiled(node), { model: 'm', mcpTools: [echo!] }).requestHash,
    );
    // Weft's own tools are still checked exactly; the MCP ones are left to their live servers.
    expect(declaredChatTools(on.request)).toEqual({ ok: true, value: ['arxiv-search'] });
    expect(declaredMcpTools(on.request)).toEqual([echo]);
  });

  it('the node keeps its MCP declarations, and switching them is an edit that marks nothing stale', () => {
    const { canvas, node } = question();
    canvas.answer(node, 'hello');
    const [echo] = mcpDeclarations('echo', [ECHO]).tools;
    canvas.edit(node, { mcpTools: [echo!] });
    expect(QuestionNodeSchema.parse(canvas.graph.nodes.get(node))).toMatchObject({ mcpTools: [echo] });
    expect(canvas.staleIds()).toEqual([]);
  });
});
