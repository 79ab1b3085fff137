import 'fake-indexeddb/auto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionNode } from '../protocol/index.ts';
import { runWeftInProcess } from '../cli/run-weft.ts';
import { TestCanvas } from '../src/core/index.ts';
import { supersedingStatements } from '../src/core/memory/memory-test-kit.ts';
import { MemoryStore } from '../runtime/memory/index.ts';
import { plannedRequest } from '../src/ui/store/planned-request.ts';
import { TestApp } from '../src/ui/store/test-app.ts';
import { startTestServer, type TestServer } from './support/index.ts';

// #29.4: `weft compile` builds a node dated "as of" with the same dated [Memory] block the app previews and sends.
const MARCH = Date.UTC(2026, 2, 1);
const APRIL = Date.UTC(2026, 3, 1);
const JUNE = Date.UTC(2026, 5, 1);

let server: TestServer;
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'weft-compile-as-of-'));
  const home = join(folder, 'home');
  const { profile } = supersedingStatements(
    [
      { said: 'I prefer tabs over spaces.', at: MARCH, id: 'line-tabs' },
      { said: 'I prefer spaces over tabs now.', at: JUNE, id: 'line-spaces' },
    ],
    'preference',
  );
  const store = new MemoryStore({ directory: join(home, 'memory'), now: () => JUNE, newId: () => 'e' });
  await store.update(null, () => ({ change: { profile, events: [] }, result: null }));
  server = await startTestServer({ home });
});
afterAll(async () => {
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('weft compile of a node dated "as of"', () => {
  it('prints the request the app previews: the line valid then, under a dated header, and the same hash', async () => {
    const canvas = new TestCanvas();
    const dated = canvas.addQuestion('Which indentation did I use back then?');
    canvas.edit(dated, { memoryReading: { includeInferred: false, asOf: APRIL } });
    const current = canvas.addQuestion('Which indentation should I use?');
    const document = canvas.document();
    const file = join(folder, 'as-of.weft.json');
    await writeFile(file, JSON.stringify(document));

    const app = await new TestApp(server, `compile-as-of-${Math.random()}`, { memory: true }).start();
    expect(await app.state.importDocument(document)).toBe(document.canvas.id);
    await app.memory!.refresh();
    const compiled = async (nodeId: string) => {
      const run = await runWeftInProcess(['compile', file, '--node', nodeId, '--json'], {
        cwd: folder,
        env: { WEFT_HOME: server.home },
      });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { requestHash: string; request: unknown };
    };
    for (const [nodeId, expected, absent] of [
      [
        dated,
        '[Memory as of 2026-04-01T00:00:00.000Z]\nPreferences:\n- I prefer tabs over spaces.',
        'spaces over tabs',
      ],
      [current, '[Memory]\nPreferences:\n- I prefer spaces over tabs now.', 'tabs over spaces'],
    ] as const) {
      const node = app.graph.nodes.get(nodeId) as QuestionNode;
      const block = app.memory!.blockFor(document.canvas.id, 'chat', node.memoryReading);
      expect(block).toBe(expected);
      const preview = plannedRequest(app.state, nodeId, 'chat', undefined, block)!;
      const printed = await compiled(nodeId);
      expect(JSON.stringify(printed.request)).toContain(JSON.stringify(expected).slice(1, -1));
      expect(JSON.stringify(printed.request)).not.toContain(absent);
      expect(printed.requestHash).toBe(preview.built.requestHash);
    }
    await app.close();
  }, 60_000);
});
