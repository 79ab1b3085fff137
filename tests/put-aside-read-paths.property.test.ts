import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanvasDocument, TopicRecord } from '../protocol/index.ts';
import { documentFromGraph } from '../src/core/index.ts';
import { canvasLabelKey } from '../src/core/topics/index.ts';
import { readDossierTurns } from '../runtime/dossiers/index.ts';
import { CanvasStore, PutAsideStore, readPutAsides } from '../runtime/fs/index.ts';
import { canvasTurnKey, WhyIndex } from '../runtime/index/index.ts';
import { NO_DOSSIERS, planRecallFromIndex } from '../runtime/recall/index.ts';
import { canvasTurns, labelledTurns } from '../runtime/topics/index.ts';
import { buildGraph, marker, specArbitrary, type Spec } from './support/random-canvas.ts';

/**
 * Issue 29.2 on random canvases, stored through a real canvas store with a real put-aside log and indexed by a real
 * why index: some live questions and mirrored turns are archived or deleted (some of them imported messages), then
 * a second canvas asks and mirrors the same words again under new ids. No read path — topic labelling, a topic's
 * labelled turns, dossier inputs, recall's plan, the index's find, why and recall — returns content put aside,
 * and each still returns the rest. What was put aside is read from the generated choices, never from the store.
 */
type Action = 'keep' | 'archive' | 'delete';
const choicesArbitrary = fc.array(
  fc.record({ action: fc.constantFrom<Action>('keep', 'archive', 'delete'), imported: fc.boolean() }),
  { minLength: 10, maxLength: 10 },
);

/** The node index in a canvas turn key (`canvas:<canvas>#node-<i>[@<version>]`), or null for another key. */
const indexOfKey = (key: string) => {
  const match = /#node-(\d+)(?:@|$)/.exec(key);
  return match ? Number(match[1]) : null;
};

/** The random canvas under `id`, its imported questions' answers marked as imported. */
function canvasOf(spec: Spec, id: string, imported: ReadonlySet<number>, allLive: boolean): CanvasDocument {
  const document = documentFromGraph(buildGraph(spec));
  document.canvas = { ...document.canvas, id, name: id };
  document.nodes = document.nodes.map((node, index) => {
    let next = allLive ? { ...node, archived: false, archivedAt: null } : node;
    if (next.kind === 'question' && imported.has(index))
      next = { ...next, versions: next.versions.map((version) => ({ ...version, origin: 'imported' as const })) };
    return next;
  });
  return document;
}

describe('put-asides on every read path', () => {
  it('leaves content put aside out of labelling, dossiers, recall, find, why and recall_turn', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'weft-put-aside-paths-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(specArbitrary, choicesArbitrary, async (spec, choices) => {
          const home = path.join(directory, `run-${run++}`);
          const roots = path.join(home, 'no-sessions');
          mkdirSync(roots, { recursive: true });
          mkdirSync(path.join(home, 'canvases'), { recursive: true });
          const canvases = new CanvasStore({
            directory: path.join(home, 'canvases'),
            putAsides: new PutAsideStore(home),
          });
          const imported = new Set(choices.flatMap((choice, index) => (choice.imported ? [index] : [])));
          const contentNode = (index: number) =>
            spec.nodes[index]!.kind === 'question' || spec.nodes[index]!.kind === 'mirror';

          // The first canvas, stored; then the chosen live turns archived or deleted in one save.
          const first = canvasOf(spec, 'first', imported, false);
          const stored = await canvases.write('first', first, { baseRevision: null });
          const putAside = new Set<number>();
          const after = structuredClone(first);
          spec.nodes.forEach((node, index) => {
            const action = choices[index]?.action ?? 'keep';
            if (node.archived || !contentNode(index) || action === 'keep') return;
            putAside.add(index);
            if (action === 'archive') after.nodes[index] = { ...after.nodes[index]!, archived: true, archivedAt: 1 };
          });
          const deleted = new Set(
            [...putAside].filter((index) => choices[index]!.action === 'delete').map((index) => `node-${index}`),
          );
          after.nodes = after.nodes.filter((node) => !deleted.has(node.id));
          after.wires = after.wires.filter((wire) => !deleted.has(wire.from) && !deleted.has(wire.to));
          await canvases.write('first', after, { baseRevision: stored.revision });

          // The same words asked and mirrored again on a second canvas, every node live.
          const second = canvasOf(spec, 'second', imported, true);
          await canvases.write('second', second, { baseRevision: null });
          const putAsides = readPutAsides(home);
          const index = WhyIndex.open({
            env: { ...process.env, HOME: home, WEFT_HOME: home, WEFT_SESSION_ROOTS: roots, WEFT_MEMORY_ROOTS: roots },
          });
          try {
            await index.index();
            const database = index.database;
            const leaked = (keys: readonly string[]) => keys.filter((key) => putAside.has(indexOfKey(key) ?? -1));
            const markers = [...putAside].map(marker);
            const leaksText = (value: unknown) => markers.filter((item) => JSON.stringify(value).includes(item));
            const secondQuestions = second.nodes.flatMap((node, at) =>
              node.kind === 'question' && node.currentVersionId !== null ? [{ node, at }] : [],
            );
            const keptQuestions = secondQuestions.filter(({ at }) => !putAside.has(at));

            // Topic labelling: the turns offered.
            const offered = await canvasTurns(canvases, putAsides);
            expect(leaked(offered.map((turn) => turn.turnKey))).toEqual([]);
            for (const { node } of keptQuestions)
              expect(offered.map((turn) => turn.turnKey)).toContain(
                canvasLabelKey('second', node.id, node.currentVersionId!),
              );

            // A topic's labelled turns and a dossier run's inputs, over every answered question of the second canvas.
            const keys = secondQuestions.map(({ node }) => canvasLabelKey('second', node.id, node.currentVersionId!));
            const record: TopicRecord = {
              format: 'weft.topics',
              topics: [{ id: 't', name: 'T', createdAt: 0 }],
              labels: keys.map((turnKey) => ({
                turnKey,
                contentHash: 'h',
                topicIds: ['t'],
                by: 'name' as const,
                at: 0,
              })),
            };
            const labelled = await labelledTurns(record, 't', { database, canvases, putAsides });
            for (const turn of labelled) expect(turn.found).toBe(!putAside.has(indexOfKey(turn.turnKey)!));
            expect(leaksText(labelled)).toEqual([]);
            const dossierTurns = await readDossierTurns(keys, { database, canvases, putAsides });
            expect(leaked(dossierTurns.map((turn) => turn.turnKey))).toEqual([]);
            expect(dossierTurns).toHaveLength(keptQuestions.length);
            expect(leaksText(dossierTurns)).toEqual([]);

            // Recall's plan from another canvas, every project: nothing put aside in the block, each listed as such.
            const documents = [(await canvases.read('first')).document, (await canvases.read('second')).document];
            const plan = await planRecallFromIndex(
              {
                database,
                canvases: documents,
                topics: { format: 'weft.topics', topics: [], labels: [] },
                dossiers: NO_DOSSIERS,
                judge: null,
                putAsides,
              },
              {
                question: 'question mirror answer node',
                canvasId: 'elsewhere',
                workingDirectory: null,
                setting: { enabled: true, global: true, ceiling: 'large', reach: 'light', struck: [] },
                contextWindow: 1_000_000,
              },
            );
            expect(leaked(plan.items.map((item) => item.id))).toEqual([]);
            expect(leaksText(plan.block)).toEqual([]);
            for (const omission of plan.omitted)
              if (omission.id.startsWith('canvas:second#'))
                expect(omission.reason === 'put-aside').toBe(putAside.has(indexOfKey(omission.id)!));

            // The same plan asked on the second canvas itself, by one of its kept questions, its turns labelled with
            // the question's topic: the canvas's own turns and the topic-labelled ones are read too, none put aside.
            const asker = keptQuestions[0];
            if (asker) {
              const own = await planRecallFromIndex(
                {
                  database,
                  canvases: documents,
                  topics: { ...record, topics: [{ id: 't', name: 'node', createdAt: 0 }] },
                  dossiers: NO_DOSSIERS,
                  judge: null,
                  putAsides,
                },
                {
                  question: 'question mirror answer node',
                  canvasId: 'second',
                  nodeId: asker.node.id,
                  workingDirectory: null,
                  setting: { enabled: true, global: true, ceiling: 'large', reach: 'light', struck: [] },
                  contextWindow: 1_000_000,
                },
              );
              expect(leaked(own.items.map((item) => item.id))).toEqual([]);
              expect(leaksText(own.block)).toEqual([]);
            }

            // The index: find, why and recall (the CLI's and the MCP tools' read paths).
            const found = index.find('node', { limit: 500 });
            expect(leaked(found.map((hit) => hit.turnKey))).toEqual([]);
            const foundKeys = new Set(found.map((hit) => hit.turnKey));
            for (const { node } of keptQuestions) expect(foundKeys).toContain(canvasTurnKey('second', node.id));
            spec.nodes.forEach((node, at) => {
              if (node.kind !== 'mirror') return;
              const why = index.why(`/w/${marker(at)}.ts`, { cwd: '/', includeRead: true });
              expect(why.hits.length > 0).toBe(!putAside.has(at));
              expect(why.putAside > 0).toBe(putAside.has(at));
            });
            second.nodes.forEach((node, at) => {
              if (!contentNode(at)) return;
              const recall = () => index.recall({ turnKey: canvasTurnKey('second', node.id) });
              if (putAside.has(at)) expect(recall).toThrow(/put aside/);
              else expect(recall().question).toContain(marker(at));
            });
          } finally {
            index.close();
          }
        }),
        { numRuns: 25 },
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
