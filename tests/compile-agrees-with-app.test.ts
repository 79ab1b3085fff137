import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../cli/command-table.ts';
import { run as compileCommand } from '../cli/commands/compile-command.ts';
import type { Terminal } from '../cli/terminal.ts';
import { TestCanvas } from '../src/core/index.ts';
import { DEFAULT_MEMORY_READING } from '../protocol/memory-reading.ts';
import { plannedRequest } from '../src/ui/store/planned-request.ts';
import { TestApp } from '../src/ui/store/test-app.ts';
import { runWeftInProcess } from '../cli/run-weft.ts';
import { startTestServer, type TestServer } from './support/index.ts';

let server: TestServer;
let folder: string;
beforeAll(async () => {
  server = await startTestServer();
  folder = await mkdtemp(join(tmpdir(), 'weft-compile-'));
});
afterAll(async () => {
  await server?.dispose();
  await rm(folder, { recursive: true, force: true });
});

async function weft(argv: string[], home = join(folder, 'home')): Promise<{ code: number; out: string; err: string }> {
  const run = await runWeftInProcess(argv, { cwd: folder, env: { WEFT_HOME: home } });
  return { code: run.code, out: run.stdout, err: run.stderr };
}

/** A canvas with everything that shapes a request: a note, a chain, a dashed reference, an archived node, a stale answer. */
function sampleCanvas(): { file: string; document: ReturnType<TestCanvas['document']>; target: string; stale: string } {
  const canvas = new TestCanvas();
  const note = canvas.addNote('Budget is 40 hours.');
  const first = canvas.addQuestion('How long does the survey take?');
  const second = canvas.addQuestion('And the analysis?');
  const aside = canvas.addQuestion('Who reviews it?');
  const target = canvas.addQuestion('Does it fit the budget?');
  canvas.wire(note, first);
  canvas.wire(first, second);
  canvas.wire(second, target);
  canvas.wire(aside, target, 'quote');
  canvas.answer(first, '12 hours.');
  canvas.answer(second, '20 hours.');
  canvas.answer(aside, 'Dana.');
  // Editing the first answer's question leaves the second answer stale: its mark must reach the request.
  canvas.edit(first, { question: 'How long does the field survey take?' });
  canvas.answer(first, '16 hours.');
  canvas.archive(aside);
  canvas.unarchive(aside);
  return { file: join(folder, 'plan.weft.json'), document: canvas.document(), target, stale: second };
}

describe('weft compile agrees with the app byte for byte', () => {
  it('the CLI prints the request, sources and hash the app previews and commits for the same canvas', async () => {
    const { file, document, target, stale } = sampleCanvas();
    await writeFile(file, JSON.stringify(document));

    const app = await new TestApp(server, `compile-agrees-${Math.random()}`, { memory: true }).start();
    expect(await app.state.importDocument(document)).toBe(document.canvas.id);
    // A fact the person stated, in the profile the server keeps under its WEFT_HOME: the ask carries it.
    const memory = app.memory!;
    await memory.api.addLine((await memory.api.state()).revision, 'identity', 'Works at a field station in Tromsø.');
    await memory.refresh();
    const block = memory.blockFor(document.canvas.id, 'chat', DEFAULT_MEMORY_READING);
    expect(block).toContain('Works at a field station in Tromsø.');
    const preview = plannedRequest(app.state, target, 'chat', undefined, block)!;
    expect(app.state.shown.has(stale)).toBe(true);

    // No --model and no pin on the node: the CLI resolves the default model the app does, from the same home.
    expect(document.nodes.find((node) => node.id === target)).toMatchObject({ model: null });
    const cli = await weft(['compile', file, '--node', target, '--json'], server.home);
    expect(cli.code, cli.err).toBe(0);
    const printed = JSON.parse(cli.out) as {
      requestHash: string;
      request: unknown;
      sources: unknown;
      stale: string[];
      model: string;
      memory: { sent: boolean };
    };
    expect(printed.model).toBe(app.state.defaultModelId);
    expect(printed.memory.sent).toBe(true);
    expect(printed.requestHash).toBe(preview.built.requestHash);
    expect(JSON.stringify(printed.request)).toBe(JSON.stringify(preview.built.request));
    expect(printed.sources).toEqual(preview.compiled.sources);
    expect(printed.stale).toEqual([stale]);

    // The commit the app writes when it sends the request carries the same hash.
    expect(await app.state.ask(target)).toBe(true);
    const commit = app.graph.events.filter((event) => event.op === 'commit' && event.objectId === target).at(-1)!;
    expect(commit.meta.requestHash).toBe(printed.requestHash);

    const human = await weft(['compile', file, '--node', target, '--model', preview.model.id], server.home);
    expect(human.out.split('\n')[0]).toBe(`request ${preview.built.requestHash}`);
    expect(human.out).toContain('[Stale: this answer');
    expect(human.out).toMatch(/--- user {2}\(profile\)\n\[Memory\]\nIdentity:\n- Works at a field station in Tromsø\./);

    // --no-memory leaves the block out and says so; so does the canvas's memory switch, read from the journal.
    const bare = await weft(['compile', file, '--node', target, '--no-memory'], server.home);
    expect(bare.out).toContain('memory  not sent: left out (--no-memory)');
    expect(bare.out).not.toContain('[Memory]');
    const withoutMemory = plannedRequest(app.state, target)!;
    expect(bare.out.split('\n')[0]).toBe(`request ${withoutMemory.built.requestHash}`);
    await memory.api.setCanvas(document.canvas.id, false);
    const switchedOff = await weft(['compile', file, '--node', target], server.home);
    expect(switchedOff.out).toContain('memory  not sent: off for this canvas');
    expect(switchedOff.out.split('\n')[0]).toBe(`request ${withoutMemory.built.requestHash}`);
    await app.close();
  }, 60_000);

  it('--bundle writes a Context Bundle that `weft bundle verify` accepts, and a changed one it refuses', async () => {
    const { file, document, target } = sampleCanvas();
    await writeFile(file, JSON.stringify(document));
    const made = await weft(['compile', file, '--node', target, '--bundle', '--out', 'q.bundle.json', '--json']);
    expect(made.code, made.err).toBe(0);
    const bundlePath = join(folder, 'q.bundle.json');
    const bundle = JSON.parse(await readFile(bundlePath, 'utf8')) as {
      requestHash: string;
      messages: { content: { text: string }[] }[];
    };
    expect(bundle.requestHash).toBe((JSON.parse(made.out) as { requestHash: string }).requestHash);
    expect(await weft(['bundle', 'verify', 'q.bundle.json'])).toMatchObject({ code: 0 });

    bundle.messages[0]!.content[0]!.text += ' (edited)';
    await writeFile(join(folder, 'edited.json'), JSON.stringify(bundle));
    const refused = await weft(['bundle', 'verify', 'edited.json', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({ intact: false, requestHash: bundle.requestHash });
  });

  it('refuses a missing node, a note, a corrupt file and a foreign bundle with coded errors', async () => {
    const { file, document } = sampleCanvas();
    await writeFile(file, JSON.stringify(document));
    const note = document.nodes.find((node) => node.kind === 'note')!.id;
    expect(await weft(['compile', file, '--node', 'nope'])).toMatchObject({ code: 1 });
    expect((await weft(['compile', file, '--node', note])).err).toMatch(/is a note/);
    expect((await weft(['compile', file])).err).toMatch(/--node/);
    await writeFile(join(folder, 'broken.weft.json'), '{"format":');
    expect((await weft(['compile', 'broken.weft.json', '--node', 'x'])).err).toMatch(/not JSON/);
    await writeFile(join(folder, 'other.json'), '{"format":"something-else"}');
    expect((await weft(['bundle', 'verify', 'other.json'])).err).toMatch(/not a Weft Context Bundle/);
  });

  it('refuses a canvas file over 256 MB from its size alone, before reading it', async () => {
    // Sparse: 3 GB on paper, nothing on disk. Reading it would fail inside Node (over its 2 GB read limit) as
    // "cannot read"; the size check must refuse it first, with its own code.
    const huge = join(folder, 'huge.weft.json');
    await writeFile(huge, '');
    await truncate(huge, 3 * 1024 ** 3);
    const io: Terminal = { out: () => {}, err: () => {}, errIsTTY: false, cwd: folder, env: { WEFT_HOME: folder } };
    await expect(compileCommand(parseCommandLine(['compile', huge, '--node', 'x']), io)).rejects.toMatchObject({
      code: 'too-large',
      message: `${huge} is larger than 256 MB`,
    });
    expect((await weft(['compile', 'huge.weft.json', '--node', 'x'])).err).toMatch(/is larger than 256 MB/);
    await rm(huge);
  });
});
