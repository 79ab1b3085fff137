import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWeft } from '../cli/run-weft.ts';
import { readContextBundle } from '../protocol/index.ts';

// Written by `weft compile small-canvas.weft.json --node n5 --model test/model --no-memory --bundle
// --out context-bundle.v1.json` (see protocol/README.md): a bundle as a person receives it, kept to read forever.
const FIXTURE = fileURLToPath(new URL('../protocol/fixtures/context-bundle.v1.json', import.meta.url));
const CANVAS = fileURLToPath(new URL('../protocol/fixtures/small-canvas.weft.json', import.meta.url));
let folder: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'weft-bundle-fixture-'));
  env = { ...process.env, WEFT_HOME: join(folder, 'home') };
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the committed Context Bundle v1 fixture', () => {
  it('reads as a version 1 bundle of the fixture canvas’s node', async () => {
    const read = readContextBundle(JSON.parse(await readFile(FIXTURE, 'utf8')));
    if (!read.ok) throw new Error(read.error.message);
    const canvas = JSON.parse(await readFile(CANVAS, 'utf8')) as { canvas: { id: string }; nodes: { id: string }[] };
    expect(read.bundle).toMatchObject({ version: 1, canvasId: canvas.canvas.id, nodeId: 'n5', model: 'test/model' });
    expect(canvas.nodes.map((node) => node.id)).toContain(read.bundle.nodeId);
    expect(read.bundle.sources.map((source) => source.partId)).toEqual([
      'n1:note',
      'n3:question',
      'n3:answer',
      'n5:question',
    ]);
  });

  it('`weft bundle verify` accepts it and refuses an edited copy', async () => {
    const intact = await runWeft(['bundle', 'verify', FIXTURE], { env });
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toMatch(/intact: 4 messages hash to [0-9a-f]{64}/);

    const bundle = JSON.parse(await readFile(FIXTURE, 'utf8')) as { messages: { content: { text: string }[] }[] };
    bundle.messages[3]!.content[0]!.text = 'How many jars is that, at 500 g a jar?';
    const edited = join(folder, 'edited.json');
    await writeFile(edited, JSON.stringify(bundle));
    const refused = await runWeft(['bundle', 'verify', edited], { env });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/changed: the messages hash to/);
  });

  it('the version 2 fixture (as `weft compile` writes it now) reads, verifies, and hashes as version 1 did', async () => {
    const V2 = fileURLToPath(new URL('../protocol/fixtures/context-bundle.v2.json', import.meta.url));
    const [one, two] = await Promise.all([FIXTURE, V2].map(async (file) => JSON.parse(await readFile(file, 'utf8'))));
    const read = readContextBundle(two);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.bundle).toMatchObject({ version: 2, nodeId: 'n5', tools: {} });
    // No recall, no tools: the request is the version 1 bundle's, so its hash is too.
    expect(read.bundle.requestHash).toBe((one as { requestHash: string }).requestHash);
    expect(read.bundle.messages).toEqual((one as { messages: unknown }).messages);
    const intact = await runWeft(['bundle', 'verify', V2], { env });
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toMatch(/intact: 4 messages hash to [0-9a-f]{64}/);
  });
});
