import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  AtlasSessionResponse,
  AtlasWhyResponse,
  CanvasDocument,
  ImportStatus,
  RecallPlanResponse,
} from '../protocol/index.ts';
import {
  applyChange,
  documentFromGraph,
  emptyCanvasDocument,
  graphFromDocument,
  planMirror,
} from '../src/core/index.ts';
import { runWeft, WEFT_BIN } from '../cli/run-weft.ts';
import { withAtlasServer } from './support/atlas-server.ts';
import { FIXTURES } from './support/fixtures-directory.ts';

/**
 * Golden sets of issue 29.2 on the real server over the real session fixtures: a conversation re-imported after one
 * of its messages was archived, a session re-mirrored after one of its turns was archived, the same question asked
 * again after its node was deleted. Each ends with nothing put aside coming back, asserted through recall's plan
 * (the server's route), the why index through the CLI (`weft find`, `weft recall`) and the MCP read tools.
 */
const atlas = withAtlasServer({ prefix: 'weft-put-aside-golden-' });
const HELLO_SESSION = 'fb8acab2-b67b-454f-91b5-f87d156f0f09';

async function load(id: string): Promise<{ document: CanvasDocument; revision: string }> {
  const response = await atlas.server.api(`/api/canvases/${id}`);
  expect(response.status).toBe(200);
  return { document: (await response.json()) as CanvasDocument, revision: response.headers.get('etag')! };
}

async function save(id: string, document: CanvasDocument, revision: string | null): Promise<void> {
  const response = await atlas.server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(revision ? { 'if-match': revision } : {}) },
    body: JSON.stringify(document),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

/** The same document with one node archived, as the canvas saves it. */
function archived(document: CanvasDocument, nodeId: string): CanvasDocument {
  return {
    ...document,
    nodes: document.nodes.map((node) => (node.id === nodeId ? { ...node, archived: true, archivedAt: 5 } : node)),
  };
}

async function importExport(file: string): Promise<string[]> {
  const started = await atlas.server.api('/api/imports/conversations?name=conversations.json', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: readFileSync(file),
  });
  let status = (await started.json()) as ImportStatus;
  while (status.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await (await atlas.server.api(`/api/imports/${status.importId}`)).json()) as ImportStatus;
  }
  expect(status.state).toBe('done');
  return status.canvasIds;
}

let askingCanvasSaved = false;

/** The canvas recall is asked from: one question whose saved recall setting reaches every project (the server checks). */
async function saveAskingCanvas(): Promise<void> {
  if (askingCanvasSaved) return;
  const canvas = emptyCanvasDocument({ id: 'asking-canvas', name: 'asking', workingDirectory: null, createdAt: 1 });
  const applied = applyChange(
    graphFromDocument(canvas),
    { type: 'add-node', node: { kind: 'question', id: 'ask', question: 'What did we say?', position: { x: 0, y: 0 } } },
    { now: 1, newId: () => 'ask-x' },
  );
  if (!applied.ok) throw applied.error;
  const document = documentFromGraph(applied.value.graph);
  document.nodes = document.nodes.map((node) =>
    node.kind === 'question'
      ? { ...node, recall: { enabled: true, global: true, ceiling: 'large', reach: 'light', struck: [] } }
      : node,
  );
  await save('asking-canvas', document, null);
  askingCanvasSaved = true;
}

async function recallPlan(question: string): Promise<RecallPlanResponse> {
  await saveAskingCanvas();
  const response = await atlas.server.api('/api/recall/plan', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      question,
      canvasId: 'asking-canvas',
      nodeId: 'ask',
      workingDirectory: null,
      setting: { enabled: true, global: true, ceiling: 'large', reach: 'light', struck: [] },
      contextWindow: 200_000,
    }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as RecallPlanResponse;
}

function cliEnv(): NodeJS.ProcessEnv {
  return { ...process.env, WEFT_HOME: atlas.fixtures.weftHome, WEFT_SESSION_ROOTS: atlas.fixtures.rootsVariable };
}

async function cliFind(phrase: string): Promise<{ turnKey: string }[]> {
  const run = await runWeft(['find', phrase, '--json', '--limit', '100'], { env: cliEnv() });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { turnKey: string }[];
}

/** The MCP server over stdio, as an agent runs it, for one set of calls. */
async function withMcp<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'weft-golden', version: '1.0.0' });
  const env = Object.fromEntries(
    Object.entries(cliEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [WEFT_BIN, 'mcp'], env }));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const mcpText = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[])[0]!.text;

/**
 * Every read path asked about `words` and the turn keys `keys`: none of them returns them, and recall's block does not
 * hold `hidden` (the words put aside). `listed`: keys recall's plan
 * must list as put aside (the index holds them); `found`: keys with the same words not put aside, which `weft find`
 * must still return (so the index was asked and answered).
 */
async function expectNothingBack(
  words: string,
  hidden: string,
  keys: readonly string[],
  control: { listed?: readonly string[]; found?: readonly string[] } = {},
): Promise<void> {
  const plan = await recallPlan(`What did we say: ${words}?`);
  expect(plan.items.filter((item) => keys.includes(item.id))).toEqual([]);
  expect(plan.block ?? '').not.toContain(hidden);
  for (const key of control.listed ?? [])
    expect(plan.omitted.find((omission) => omission.id === key)?.reason).toBe('put-aside');
  const found = await cliFind(words);
  expect(found.filter((hit) => keys.includes(hit.turnKey))).toEqual([]);
  for (const key of control.found ?? []) expect(found.map((hit) => hit.turnKey)).toContain(key);
  for (const key of keys) {
    const recalled = await runWeft(['recall', key], { env: cliEnv() });
    expect(recalled.code).not.toBe(0);
    expect(recalled.stderr).toMatch(/put aside|archived or deleted|no turn|not found/i);
  }
  await withMcp(async (client) => {
    const found = JSON.parse(mcpText(await client.callTool({ name: 'find', arguments: { phrase: words } }))) as {
      turnKey: string;
    }[];
    expect(found.filter((hit) => keys.includes(hit.turnKey))).toEqual([]);
    for (const key of keys) {
      const recalled = await client.callTool({ name: 'recall_turn', arguments: { session: key } });
      expect(recalled.isError).toBe(true);
    }
  });
}

describe('nothing put aside comes back', () => {
  it('a conversation re-imported after one of its messages was archived', async () => {
    const file = join(FIXTURES, 'imports', 'chatgpt-conversations.json');
    const words = 'What is the capital of Australia?';
    const first = await importExport(file);
    const loaded = await Promise.all(first.map(async (id) => ({ id, ...(await load(id)) })));
    const { id: canvasId, document, revision } = loaded.find((each) => JSON.stringify(each.document).includes(words))!;
    const node = document.nodes.find((each) => each.kind === 'question' && each.question === words)!;
    await save(canvasId, archived(document, node.id), revision);

    const again = await importExport(file);
    const reimported = await Promise.all(again.map(async (id) => (await load(id)).document));
    const back = reimported.flatMap((canvas) =>
      canvas.nodes
        .filter((each) => each.kind === 'question' && each.question === words)
        .map((each) => ({ canvas, each })),
    );
    expect(back).toHaveLength(1);
    // It arrives archived: on the canvas, out of every read; its sibling messages arrive as they were.
    expect(back[0]!.each.archived).toBe(true);
    expect(
      reimported.flatMap((canvas) => canvas.nodes).filter((each) => each.kind === 'question' && !each.archived).length,
    ).toBeGreaterThan(0);
    const keys = [
      `canvas:${canvasId}#${node.id}`,
      ...back.map(({ canvas, each }) => `canvas:${canvas.canvas.id}#${each.id}`),
    ];
    await expectNothingBack('capital of Australia', words, keys);
    // The conversation's other messages are not put aside: still found.
    const sibling = reimported
      .flatMap((canvas) => canvas.nodes.map((each) => ({ canvas, each })))
      .find(({ each }) => each.kind === 'question' && !each.archived && each.question.includes('How warm is warm'));
    expect((await cliFind('How warm is warm')).map((hit) => hit.turnKey)).toContain(
      `canvas:${sibling!.canvas.canvas.id}#${sibling!.each.id}`,
    );
  }, 120_000);

  it('a session re-mirrored after one of its turns was archived', async () => {
    const read = async () =>
      (await (await atlas.server.api(`/api/atlas/sessions/${HELLO_SESSION}`)).json()) as AtlasSessionResponse;
    const { sessions } = await read();
    const turn = sessions[0]!.turns[0]!;
    expect(turn.userText).toContain('exporting a greet');
    // Mirrored onto a canvas as the Atlas does it, then the first turn's node archived.
    const mirrorOnto = (id: string, response: AtlasSessionResponse) => {
      const canvas = emptyCanvasDocument({ id, name: id, workingDirectory: null, createdAt: 1 });
      let graph = graphFromDocument(canvas);
      let counter = 0;
      const plan = planMirror(graph, response.sessions, null, {
        now: 2,
        newId: () => `${id}-${counter++}`,
        origin: { x: 0, y: 0 },
      });
      const applied = applyChange(
        graph,
        { type: 'batch', changes: plan.changes },
        { now: 2, newId: () => `${id}-w${counter++}` },
      );
      if (!applied.ok) throw applied.error;
      graph = applied.value.graph;
      return { document: documentFromGraph(graph), plan };
    };
    const mirrored = mirrorOnto('mirrored', { sessions, following: false });
    await save('mirrored', mirrored.document, null);
    const { document, revision } = await load('mirrored');
    await save('mirrored', archived(document, mirrored.plan.nodeIdByTurnKey[turn.key]!), revision);

    // The Atlas still shows the session, the turn marked; a re-mirror leaves it off the canvas.
    const after = await read();
    expect(after.sessions[0]!.turns[0]!.putAside).toBe(true);
    // The Why answer lists the turn as put aside (counted), not silently dropped.
    const target = encodeURIComponent('/tmp/realsessions/out/claude/basic-tools/repo/src/hello.ts');
    const why = (await (await atlas.server.api(`/api/atlas/why?target=${target}`)).json()) as AtlasWhyResponse;
    expect(why.putAside).toBe(1);
    expect(why.hits.map((hit) => hit.turnKey)).not.toContain(turn.key);
    expect(after.sessions[0]!.turns.slice(1).every((each) => !each.putAside)).toBe(true);
    const again = mirrorOnto('mirrored-again', after);
    expect(again.plan.counts.putAside).toBe(1);
    expect(again.plan.nodeIdByTurnKey[turn.key]).toBeUndefined();
    await save('mirrored-again', again.document, null);
    expect(again.document.nodes.some((node) => node.kind === 'mirror' && node.source.turnKey === turn.key)).toBe(false);
    await expectNothingBack(
      'exporting a greet',
      turn.userText.slice(0, 40),
      [turn.key, `canvas:mirrored#${mirrored.plan.nodeIdByTurnKey[turn.key]}`],
      { listed: [turn.key] },
    );
  }, 120_000);

  it('the same question asked again after its node was deleted', async () => {
    const words = 'Which quokka colony did we survey on Rottnest?';
    const asked = (id: string, nodeId: string, question = words): CanvasDocument => {
      const canvas = emptyCanvasDocument({ id, name: id, workingDirectory: null, createdAt: 1 });
      const applied = applyChange(
        graphFromDocument(canvas),
        { type: 'add-node', node: { kind: 'question', id: nodeId, question, position: { x: 0, y: 0 } } },
        { now: 3, newId: () => `${nodeId}-x` },
      );
      if (!applied.ok) throw applied.error;
      return documentFromGraph(applied.value.graph);
    };
    await save('quokkas', asked('quokkas', 'q1'), null);
    const { document, revision } = await load('quokkas');
    await save('quokkas', { ...document, nodes: [] }, revision);
    // Asked again, word for word, on another canvas.
    await save('quokkas-again', asked('quokkas-again', 'q2'), null);
    // Other words about the same colony, never put aside: still found.
    await save('quokkas-other', asked('quokkas-other', 'q3', 'Which quokka colony is largest?'), null);
    await expectNothingBack(
      'quokka colony',
      'did we survey on Rottnest',
      ['canvas:quokkas#q1', 'canvas:quokkas-again#q2'],
      {
        listed: ['canvas:quokkas-again#q2'],
        found: ['canvas:quokkas-other#q3'],
      },
    );
  }, 120_000);
});
