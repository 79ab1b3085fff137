import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument, QuestionNode, Version } from '../protocol/canvas-document.ts';
import { CanvasStore } from '../runtime/fs/canvas-store.ts';
import { sampleCanvas } from '../tests/support/sample-canvas.ts';
import { runWeft } from './run-weft.ts';

let home: string;
let env: NodeJS.ProcessEnv;
let document: CanvasDocument;

function version(id: string, text: string, model: string, run?: Version['run']): Version {
  return {
    id,
    text,
    question: 'Q',
    createdAt: 10,
    model,
    requestHash: null,
    upstreamFingerprint: 'a'.repeat(64),
    upstream: { base: null, parts: [], removed: [] },
    origin: 'generated',
    status: 'complete',
    branchOf: null,
    ...(run ? { run } : {}),
  };
}

/** Three questions, wired a → b → c but written c, a, b: the table follows the wires, not the file. */
function study(): CanvasDocument {
  const base = sampleCanvas('study', 'Study');
  const template = base.nodes[1] as QuestionNode;
  const run = { name: 'beta run', model: 'local/beta' };
  const question = (id: string, text: string, createdAt: number): QuestionNode => ({
    ...template,
    id,
    question: text,
    createdAt,
    versions: [
      version(`${id}-1`, `alpha on ${id}`, 'local/alpha'),
      version(`${id}-2`, `beta on ${id}`, 'local/beta', run),
    ],
    currentVersionId: `${id}-1`,
  });
  return {
    ...base,
    nodes: [
      question('c', 'Third question', 1),
      question('a', 'First question', 3),
      question('b', 'Second question', 2),
    ],
    wires: [
      { id: 'w1', from: 'a', to: 'b', createdAt: 4, kind: 'solid' },
      { id: 'w2', from: 'b', to: 'c', createdAt: 5, kind: 'solid' },
    ],
  };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'weft-compare-'));
  env = { ...process.env, WEFT_HOME: home };
  mkdirSync(join(home, 'canvases'), { recursive: true });
  document = study();
  await new CanvasStore({ directory: join(home, 'canvases') }).write('study', document, { baseRevision: null });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('weft compare (the CLI, spawned)', () => {
  it('prints the run comparison upstream first, by name or id, as text and as JSON', async () => {
    const text = await runWeft(['compare', 'Study', '--run', 'beta run'], { env });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe('Run "beta run" under local/beta: 3 questions, 0 diverged');
    expect(lines.filter((line) => /^\s+\d+ {2}/.test(line)).map((line) => line.trim().split(/\s{2,}/)[1])).toEqual([
      'First question',
      'Second question',
      'Third question',
    ]);

    const json = await runWeft(['compare', 'study', '--run', 'beta run', '--json'], { env });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      model: string;
      firstDivergence: string | null;
      rows: { nodeId: string; original: { versionId: string }; rerun: { versionId: string; model: string } }[];
    };
    expect(parsed.model).toBe('local/beta');
    expect(parsed.firstDivergence).toBeNull();
    expect(parsed.rows.map((row) => [row.nodeId, row.original.versionId, row.rerun.versionId])).toEqual([
      ['a', 'a-1', 'a-2'],
      ['b', 'b-1', 'b-2'],
      ['c', 'c-1', 'c-2'],
    ]);
  });

  it('reads a canvas file too, lists its runs without --run, and refuses an unknown run (exit 1)', async () => {
    const file = join(home, 'study.weft.json');
    writeFileSync(file, JSON.stringify(document));
    const listed = await runWeft(['compare', file], { env });
    expect(listed).toMatchObject({ code: 0, stdout: 'beta run\n' });
    const unknown = await runWeft(['compare', file, '--run', 'gamma'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('weft: no run "gamma" on "Study"; its runs: beta run\n');
    const missing = await runWeft(['compare', 'Nowhere', '--run', 'beta run'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no canvas "Nowhere" under .*, and no such file/);
  });
});
