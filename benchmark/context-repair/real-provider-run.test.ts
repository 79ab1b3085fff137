import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBenchModel } from './bench-model.ts';
import { generateCases } from './generate-cases.ts';
import { runBenchmark } from './run-benchmark.ts';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model-server.ts';

// A configured provider, not the built-in `scripted/…` path: an `openai-compatible` entry in a temporary
// WEFT_HOME whose base URL is the scripted server on 127.0.0.1. The run must treat it as a model like any other.
const REPO_STATUS = fileURLToPath(new URL('./STATUS.md', import.meta.url));
let server: ScriptedModelServer;
let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startScriptedModelServer();
  root = await mkdtemp(join(tmpdir(), 'context-repair-provider-'));
  const home = join(root, 'home');
  env = { WEFT_HOME: home };
  await mkdir(home);
  await writeFile(
    join(home, 'settings.json'),
    JSON.stringify({
      version: 1,
      providers: [
        { id: 'local', kind: 'openai-compatible', baseUrl: server.baseUrl, enabled: true, models: ['adopt'] },
      ],
      judgeModelId: null,
      backupFolder: null,
      defaultModelId: null,
    }),
  );
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('a run against a configured provider', () => {
  it('is recorded as a model result: the manifest says scripted false and the STATUS row’s kind is model', async () => {
    const status = join(root, 'STATUS.md');
    await copyFile(REPO_STATUS, status);
    const before = await readFile(REPO_STATUS, 'utf8');
    const result = await runBenchmark({
      model: 'local/adopt',
      caseSet: generateCases({ perCell: 1 }),
      runsDirectory: join(root, 'runs'),
      limit: 1,
      statusPath: status,
      openModel: (id) => openBenchModel(id, env),
    });
    expect(result.report.failed).toEqual([]);
    expect(result.report.written).toBeGreaterThanOrEqual(7);
    expect(server.requestCount()).toBe(result.report.written);

    const manifest = JSON.parse(await readFile(join(result.directory, 'manifest.json'), 'utf8')) as {
      model: string;
      scripted: boolean;
    };
    expect(manifest).toMatchObject({ model: 'local/adopt', scripted: false });
    expect(result.scores.scripted).toBe(false);

    const row = (await readFile(status, 'utf8')).split('\n').find((line) => line.includes('`local/adopt`'))!;
    expect(row.split(' | ')[2]).toBe('model');
    expect(row).not.toContain('scripted reference');
    // The repository's STATUS.md is never written by a test.
    expect(await readFile(REPO_STATUS, 'utf8')).toBe(before);
  }, 60_000);
});
