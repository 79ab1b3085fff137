import { describe, expect, it } from 'vitest';
import { CanonicalRequestSchema, type CanonicalRequest } from '../../protocol/dispatch-request.ts';
import { TOOL_OUTPUT_MAX_CHARS, type ToolCallRecord } from '../../protocol/chat-tools.ts';
import { QuestionNodeSchema } from '../../protocol/canvas-document.ts';
import { buildRequest } from './build-request.ts';
import {
  boundToolOutput,
  boundToolText,
  CHAT_TOOLS,
  chatToolByName,
  chatToolRequest,
  declaredChatTools,
  toolCallEvent,
} from './chat-tools.ts';
import { upstreamSnapshot } from './fingerprint.ts';
import { hashCanonical } from './hashing.ts';
import { TestCanvas } from './test-canvas.ts';

function chain() {
  const canvas = new TestCanvas();
  const parent = canvas.addQuestion('Who wrote the transformer paper?');
  canvas.answer(parent, 'Vaswani et al.');
  const child = canvas.addQuestion('When?');
  canvas.wire(parent, child);
  canvas.answer(child, '2017.');
  return { canvas, parent, child };
}

const CALL: ToolCallRecord = {
  callId: 'call_1',
  tool: 'scholarly_search',
  input: '{"query":"transformer"}',
  output: '1. Attention Is All You Need — Ashish Vaswani (2017).',
  status: 'ok',
  code: null,
};

describe('chat tools in the request (C35, C9)', () => {
  it('tools are off unless switched on; switching one on puts its flag and declaration in the request and its hash', () => {
    const { canvas, child } = chain();
    const off = buildRequest(canvas.compiled(child), { model: 'm' });
    expect(off.request.tools).toEqual({});
    expect(off.request.toolDeclarations).toBeUndefined();
    const on = buildRequest(canvas.compiled(child), { model: 'm', chatTools: ['scholarly-search'] });
    expect(on.request.tools).toEqual({ scholarlySearch: true });
    expect(on.request.toolDeclarations).toEqual([CHAT_TOOLS['scholarly-search'].declaration]);
    expect(CanonicalRequestSchema.parse(on.request)).toEqual(on.request);
    expect(on.requestHash).not.toBe(off.requestHash);
    expect(on.requestHash).toBe(hashCanonical(on.request));
    // The same setting always hashes the same, and the hash covers the declaration's text, not only the flag.
    expect(buildRequest(canvas.compiled(child), { model: 'm', chatTools: ['scholarly-search'] }).requestHash).toBe(
      on.requestHash,
    );
    const reworded = { ...on.request, toolDeclarations: [{ ...on.request.toolDeclarations![0]!, description: 'x' }] };
    expect(hashCanonical(reworded)).not.toBe(on.requestHash);
  });

  it('the scholarly tools are declared in one fixed order whatever order they were switched on in, each its own hash', () => {
    const { canvas, child } = chain();
    const all = buildRequest(canvas.compiled(child), {
      model: 'm',
      chatTools: ['semantic-scholar-search', 'arxiv-search', 'scholarly-search'],
    });
    expect(all.request.tools).toEqual({ scholarlySearch: true, arxivSearch: true, semanticScholarSearch: true });
    expect(all.request.toolDeclarations?.map((declaration) => declaration.name)).toEqual([
      'scholarly_search',
      'arxiv_search',
      'semantic_scholar_search',
    ]);
    const reordered = buildRequest(canvas.compiled(child), {
      model: 'm',
      chatTools: ['scholarly-search', 'arxiv-search', 'semantic-scholar-search'],
    });
    expect(reordered.requestHash).toBe(all.requestHash);
    const hashes = (['scholarly-search', 'arxiv-search', 'semantic-scholar-search'] as const).map(
      (id) => buildRequest(canvas.compiled(child), { model: 'm', chatTools: [id] }).requestHash,
    );
    expect(new Set(hashes).size).toBe(3);
    expect(declaredChatTools(all.request)).toEqual({
      ok: true,
      value: ['scholarly-search', 'arxiv-search', 'semantic-scholar-search'],
    });
  });

  it('a received request may use only tools declared exactly as Weft declares them', () => {
    const request: CanonicalRequest = {
      model: 'm',
      messages: [{ role: 'user' as const, content: [] }],
      ...chatToolRequest(['scholarly-search']),
    };
    expect(declaredChatTools(request)).toEqual({ ok: true, value: ['scholarly-search'] });
    expect(declaredChatTools({ ...request, tools: { webSearch: false }, toolDeclarations: undefined })).toEqual({
      ok: true,
      value: [],
    });
    const refusals: CanonicalRequest[] = [
      { ...request, tools: { scholarlySearch: true, shell: true } },
      { ...request, toolDeclarations: [{ ...request.toolDeclarations![0]!, name: 'run_shell' }] },
      { ...request, tools: {} },
      { ...request, toolDeclarations: [] },
    ];
    for (const refused of refusals)
      expect(declaredChatTools(refused)).toMatchObject({ ok: false, error: { code: 'tool-refused' } });
    expect(chatToolByName('scholarly_search', ['scholarly-search'])?.id).toBe('scholarly-search');
    expect(chatToolByName('scholarly_search', [])).toBeNull();
  });

  it('switching tools on a node is an edit of the node that marks nothing stale and moves no fingerprint', () => {
    const { canvas, parent, child } = chain();
    const before = upstreamSnapshot(canvas.graph, child).upstreamFingerprint;
    canvas.edit(parent, { tools: ['scholarly-search'] });
    expect(QuestionNodeSchema.parse(canvas.graph.nodes.get(parent)).tools).toEqual(['scholarly-search']);
    expect(canvas.staleIds()).toEqual([]);
    expect(upstreamSnapshot(canvas.graph, child).upstreamFingerprint).toBe(before);
    expect(canvas.eventOps().at(-1)).toBe('edit');
  });

  it('tool calls are kept on the version; later context carries the answer, not the tool results', () => {
    const { canvas, parent, child } = chain();
    const node = canvas.graph.nodes.get(parent)!;
    if (node.kind !== 'question') throw new Error('expected a question');
    const transcriptBefore = canvas.transcript(child);
    canvas.apply({
      type: 'add-version',
      nodeId: parent,
      select: true,
      version: {
        ...node.versions[0]!,
        id: 'v-tools',
        text: 'Vaswani et al.',
        toolCalls: [CALL],
      },
    });
    const stored = canvas.graph.nodes.get(parent);
    expect(stored?.kind === 'question' && stored.versions.at(-1)?.toolCalls).toEqual([CALL]);
    expect(canvas.transcript(child)).toBe(transcriptBefore);
    expect(canvas.transcript(child)).not.toContain('Attention Is All You Need');
  });

  it('bounds a tool result with a mark saying how much was cut, never splitting a surrogate pair', () => {
    expect(boundToolText('short', 10)).toBe('short');
    expect(boundToolText('abcdefghij', 4)).toBe('abcd\n[cut: 6 more characters]');
    expect(boundToolText('ab😀cd', 3)).toBe('ab\n[cut: 4 more characters]');
    const long = boundToolOutput('x'.repeat(TOOL_OUTPUT_MAX_CHARS * 2));
    expect(long.startsWith('x'.repeat(TOOL_OUTPUT_MAX_CHARS))).toBe(true);
    expect(long.length).toBeLessThan(TOOL_OUTPUT_MAX_CHARS + 40);
  });

  it('the event of a call carries metadata only: tool, outcome and size, never its text', () => {
    const event = toolCallEvent('n1', 'v1', CALL);
    expect(event).toEqual({
      op: 'tool-call',
      objectId: 'n1',
      meta: {
        versionId: 'v1',
        callId: 'call_1',
        tool: 'scholarly_search',
        status: 'ok',
        code: null,
        outputChars: CALL.output.length,
      },
    });
    expect(JSON.stringify(event)).not.toContain('transformer');
  });
});
