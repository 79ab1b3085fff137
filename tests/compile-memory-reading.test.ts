import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LineEvidence, ProfileLine } from '../protocol/index.ts';
import { runWeftInProcess } from '../cli/run-weft.ts';
import { MemoryStore, memoryDirectory } from '../runtime/memory/index.ts';
import { emptyProfile, TestCanvas } from '../src/core/index.ts';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'weft-compile-reading-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const home = () => join(folder, 'home');

function line(id: string, text: string, evidence: LineEvidence): ProfileLine {
  return {
    id,
    text,
    evidence,
    span: evidence === 'inferred' ? 'I always measure in metres' : null,
    origin: { canvasId: null, nodeId: null, versionId: null, commitHash: null, at: 1 },
    createdAt: 1,
    supersedes: [],
    ended: null,
  };
}

async function compile(file: string, node: string): Promise<{ hash: string; out: string }> {
  const run = await runWeftInProcess(['compile', file, '--node', node, '--model', 'test/model'], {
    cwd: folder,
    env: { WEFT_HOME: home() },
  });
  expect(run.code, run.stderr).toBe(0);
  return { hash: run.stdout.split('\n')[0]!, out: run.stdout };
}

describe('weft compile reads memory as the node does (#29.3)', () => {
  it('leaves an inferred line out with the switch off, sends it marked with it on, and the hash differs', async () => {
    // A profile on disk, as the server keeps it: one line the person typed, one the judge inferred.
    const store = new MemoryStore({ directory: memoryDirectory(home()), now: () => 5, newId: () => 'event-1' });
    const profile = emptyProfile();
    profile.documents.preferences = [
      line('typed', 'Prefers SI units', 'manual'),
      line('guess', 'Probably works outdoors', 'inferred'),
    ];
    await store.update(null, () => ({ change: { profile }, result: null }));

    const canvas = new TestCanvas();
    const node = canvas.addQuestion('How far is the next survey site?');
    const file = join(folder, 'reading.weft.json');
    await writeFile(file, JSON.stringify(canvas.document()));
    const off = await compile(file, node);
    expect(off.out).toContain('- Prefers SI units');
    expect(off.out).not.toContain('Probably works outdoors');

    canvas.apply({ type: 'edit-node', nodeId: node, patch: { memoryReading: { includeInferred: true, asOf: null } } });
    await writeFile(file, JSON.stringify(canvas.document()));
    const on = await compile(file, node);
    expect(on.out).toContain('- Prefers SI units');
    expect(on.out).toContain('- [inferred] Probably works outdoors');
    expect(on.hash).toMatch(/^request [0-9a-f]{64}$/);
    expect(on.hash).not.toBe(off.hash);
  });
});
