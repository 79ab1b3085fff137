import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_HELLO, copyFixtures, type FixtureWorkspace } from '../runtime/index/fixture-roots.ts';
import { openDossierStore } from '../runtime/dossiers/index.ts';
import { TopicStore } from '../runtime/topics/index.ts';
import { chainCanvas } from '../tests/support/chain-canvas.ts';
import { runWeft, WEFT_BIN } from './run-weft.ts';

/** A topic labelling one real turn and its dossier: one sentence citing that turn, one citing a canvas turn that is gone. */
async function seedDossier(home: string, turnKey: string) {
  const topics = new TopicStore({ directory: join(home, 'memory'), now: () => 1, newId: () => 'topic-1' });
  await topics.update(null, () => ({
    record: {
      format: 'weft.topics',
      topics: [{ id: 'topic-1', name: 'Greeting', createdAt: 1 }],
      labels: [{ turnKey, contentHash: 'h', topicIds: ['topic-1'], by: 'name', at: 1 }],
    },
    events: [],
    result: null,
  }));
  const store = openDossierStore(home);
  store.writeVersion({
    topicId: 'topic-1',
    mode: 'update',
    modelId: 'scripted/writer',
    baseVersion: 0,
    dropped: [],
    turnsRead: [turnKey],
    factsRead: [],
    dossier: {
      format: 'weft.dossier',
      topicId: 'topic-1',
      version: 1,
      writtenAt: 1,
      sections: {
        what: [{ id: 'live', text: 'hello.ts exports a greet function.', citations: [turnKey] }],
        decisions: [],
        status: [],
        open: [{ id: 'gone', text: 'A canvas node said so.', citations: ['canvas:gone#node@v1'] }],
      },
    },
  });
  store.close();
  return { id: 'topic-1', name: 'Greeting', createdAt: 1 };
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text: string }[];
  return content[0]!.text;
}

describe('weft mcp over stdio', () => {
  let space: FixtureWorkspace;
  let client: Client;

  beforeAll(async () => {
    // No `weft index` first: the server connects at once and its first tool call builds the index.
    space = copyFixtures('weft-mcp-');
    client = new Client({ name: 'weft-test', version: '1.0.0' });
    const env = Object.fromEntries(
      Object.entries(space.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [WEFT_BIN, 'mcp'], env, stderr: 'pipe' }),
    );
  });

  afterAll(async () => {
    await client?.close();
    rmSync(space.directory, { recursive: true, force: true });
  });

  it('lists exactly the six read-only tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'find',
      'list_topics',
      'read_dossier',
      'recall_turn',
      'why_check',
      'why_file',
    ]);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
  });

  it('answers each tool with the same data as the CLI', async () => {
    const check = JSON.parse(textOf(await client.callTool({ name: 'why_check', arguments: { path: CLAUDE_HELLO } })));
    expect(check).toEqual({ path: CLAUDE_HELLO, history: true });
    const none = JSON.parse(textOf(await client.callTool({ name: 'why_check', arguments: { path: '/nowhere/x.ts' } })));
    expect(none.history).toBe(false);

    const hits = JSON.parse(textOf(await client.callTool({ name: 'why_file', arguments: { path: CLAUDE_HELLO } })));
    const cli = JSON.parse((await runWeft(['why', CLAUDE_HELLO, '--json'], { env: space.env })).stdout);
    expect(hits).toEqual(cli);
    expect(hits[0]).toMatchObject({ runner: 'claude-code', turn: 1 });

    const found = JSON.parse(
      textOf(await client.callTool({ name: 'find', arguments: { phrase: 'exporting a greet', in: 'q' } })),
    );
    expect(found.some((hit: { turnKey: string }) => hit.turnKey === hits[0].turnKey)).toBe(true);

    const turn = JSON.parse(
      textOf(await client.callTool({ name: 'recall_turn', arguments: { session: hits[0].sessionId, turn: 1 } })),
    );
    expect(turn.turnKey).toBe(hits[0].turnKey);
    expect(turn.question).toContain('Create src/hello.ts');

    const missing = await client.callTool({ name: 'recall_turn', arguments: { session: 'no-such-session', turn: 3 } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^turn-not-found: /);
  });

  it('recall_turn answers a canvas turn only while its node is live on the canvas', async () => {
    const document = chainCanvas('mcp-canvas', 1, 2);
    mkdirSync(join(space.weftHome, 'canvases'), { recursive: true });
    const record = join(space.weftHome, 'canvases', 'mcp-canvas.weft.json');
    writeFileSync(record, JSON.stringify(document));
    const recall = (turnKey: string) => client.callTool({ name: 'recall_turn', arguments: { session: turnKey } });
    const live = JSON.parse(textOf(await recall('canvas:mcp-canvas#mcp-canvas-0-1')));
    expect(live.question).toBe('Question 0.1: what follows from the step above?');

    document.nodes = document.nodes.map((node) =>
      node.id === 'mcp-canvas-0-1' ? { ...node, archived: true, archivedAt: 1 } : node,
    );
    writeFileSync(record, JSON.stringify(document));
    const archived = await recall('canvas:mcp-canvas#mcp-canvas-0-1');
    expect(archived.isError).toBe(true);
    expect(textOf(archived)).toMatch(/^turn-not-found: /);
    expect(JSON.parse(textOf(await recall('canvas:mcp-canvas#mcp-canvas-0-0'))).turnKey).toBe(
      'canvas:mcp-canvas#mcp-canvas-0-0',
    );
    rmSync(record);
  });

  it('recall_turn reads the versioned key a dossier cites: that version, while its canvas keeps it', async () => {
    const document = chainCanvas('mcp-versions', 1, 1);
    const node = document.nodes.find((each) => each.id === 'mcp-versions-0-0');
    if (node?.kind !== 'question') throw new Error('the chain canvas has its question');
    const first = node.versions[0]!;
    // A second answer made current: the index holds it, the key below cites the first.
    node.versions.push({ ...first, id: 'v-second', question: 'Asked again', text: 'The second answer.' });
    node.currentVersionId = 'v-second';
    mkdirSync(join(space.weftHome, 'canvases'), { recursive: true });
    const record = join(space.weftHome, 'canvases', 'mcp-versions.weft.json');
    writeFileSync(record, JSON.stringify(document));
    const recall = (turnKey: string) => client.callTool({ name: 'recall_turn', arguments: { session: turnKey } });

    const cited = JSON.parse(textOf(await recall(`canvas:mcp-versions#mcp-versions-0-0@${first.id}`)));
    expect(cited).toMatchObject({
      turnKey: `canvas:mcp-versions#mcp-versions-0-0@${first.id}`,
      question: first.question,
      answer: first.text,
    });
    const current = JSON.parse(textOf(await recall('canvas:mcp-versions#mcp-versions-0-0@v-second')));
    expect(current.answer).toBe('The second answer.');
    const dropped = await recall('canvas:mcp-versions#mcp-versions-0-0@v-never-kept');
    expect(dropped.isError).toBe(true);
    expect(textOf(dropped)).toMatch(/^turn-not-found: /);
    rmSync(record);
  });

  it('lists topics and reads a dossier by name, leaving out sentences whose sources are gone', async () => {
    const hits = JSON.parse(textOf(await client.callTool({ name: 'why_file', arguments: { path: CLAUDE_HELLO } })));
    const topic = await seedDossier(space.weftHome, hits[0].turnKey);
    const topics = JSON.parse(textOf(await client.callTool({ name: 'list_topics', arguments: {} })));
    expect(topics).toEqual([{ ...topic, turns: 1, dossierVersion: 1 }]);
    const read = JSON.parse(textOf(await client.callTool({ name: 'read_dossier', arguments: { topic: 'greeting' } })));
    expect(read.topic.id).toBe(topic.id);
    expect(read.knownAs).toBe('inferred');
    expect(read.sentencesLeftOut).toBe(1);
    expect(read.dossier.sections.what).toEqual([
      { id: 'live', text: 'hello.ts exports a greet function.', citations: [hits[0].turnKey] },
    ]);
    expect(read.dossier.sections.open).toEqual([]);
    const unknown = await client.callTool({ name: 'read_dossier', arguments: { topic: 'nothing' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^topic-unknown: /);

    const cli = await runWeft(['dossier', topic.id], { env: space.env });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`- hello.ts exports a greet function.  [${hits[0].turnKey}]`);
    expect(cli.stdout).toContain('- [sources gone] A canvas node said so.  [canvas:gone#node@v1]');
    expect(cli.stdout).toMatch(
      /- hello\.ts exports a greet function\. {2}\[[^\]]+\] {2}\(inferred, holds since \d{4}-/,
    );
    const json = JSON.parse((await runWeft(['dossier', 'Greeting', '--json'], { env: space.env })).stdout);
    expect(json).toMatchObject({ topic: { id: topic.id }, retired: ['gone'], dossier: { version: 1 } });
  });

  it('every failed call reaches the model as an isError result with a coded message', async () => {
    const badArguments = await client.callTool({ name: 'recall_turn', arguments: { session: 'x', turn: -1 } });
    expect(badArguments.isError).toBe(true);
    expect(textOf(badArguments)).toMatch(/^invalid-arguments: Input validation error: .*recall_turn/);
    const noPath = await client.callTool({ name: 'why_file', arguments: {} });
    expect(noPath.isError).toBe(true);
    expect(textOf(noPath)).toMatch(/^invalid-arguments: /);
    const unknown = await client.callTool({ name: 'why_everything', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^unknown-tool: Tool why_everything not found/);
  });
});
