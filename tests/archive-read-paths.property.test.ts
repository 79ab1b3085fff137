import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentFromGraph } from '../src/core/index.ts';
import { canvasLabelKey } from '../src/core/topics/index.ts';
import { readDossierTurns } from '../runtime/dossiers/index.ts';
import { CanvasStore } from '../runtime/fs/index.ts';
import { canvasTurnKey, indexCanvas, turnKeySources } from '../runtime/index/index.ts';
import { canvasTurns, labelledTurns } from '../runtime/topics/index.ts';
import { archivedInSpec, buildGraph, marker, specArbitrary } from './support/random-canvas.ts';

/**
 * C3 beyond the core, on random canvases stored in a real canvas store: topic labels (the turns offered and a
 * topic's labelled turns), dossier inputs, recall's
 * turn sources and the why index's canvas record never name or carry an archived node, and do name each live
 * one. What is archived is read from the generated spec, never from `isLive`, so a broken predicate fails here.
 */
/** The node id of a canvas turn key (`canvas:<canvas>#<node>` with an optional `@<version>`). */
const nodeOfKey = (key: string) => key.split('#')[1]!.split('@')[0]!;

describe('archive on the runtime read paths', () => {
  it('leaves every archived node out of topic labels, dossier inputs, recall and the why index', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'weft-archive-paths-'));
    try {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(specArbitrary, async (spec) => {
          const archived = archivedInSpec(spec);
          const document = documentFromGraph(buildGraph(spec));
          const canvasId = document.canvas.id;
          const canvasesDirectory = path.join(directory, `run-${run++}`);
          await mkdir(canvasesDirectory);
          const canvases = new CanvasStore({ directory: canvasesDirectory });
          await canvases.write(canvasId, document, { baseRevision: null });
          const questions = document.nodes.flatMap((node) =>
            node.kind === 'question' && node.currentVersionId !== null ? [node] : [],
          );
          const liveQuestions = questions.filter((node) => !archived.has(node.id));
          const markers = [...archived].map((id) => marker(Number(id.slice('node-'.length))));
          const leaks = (value: unknown) => markers.filter((item) => JSON.stringify(value).includes(item));

          // Topic labels (C15): the live canvas turns offered to the labeller.
          const labelTurns = await canvasTurns(canvases);
          expect(labelTurns.map((turn) => turn.turnKey).sort()).toEqual(
            liveQuestions.map((node) => canvasLabelKey(canvasId, node.id, node.currentVersionId!)).sort(),
          );
          expect(leaks(labelTurns)).toEqual([]);
          // A topic's labelled turns: each answered question labelled, found exactly when its node is live.
          const labelled = await labelledTurns(
            {
              format: 'weft.topics',
              topics: [{ id: 't', name: 'T', createdAt: 0 }],
              labels: questions.map((node) => ({
                turnKey: canvasLabelKey(canvasId, node.id, node.currentVersionId!),
                contentHash: 'h',
                topicIds: ['t'],
                by: 'name' as const,
                at: 0,
              })),
            },
            't',
            { database: null, canvases },
          );
          expect(labelled).toHaveLength(questions.length);
          for (const turn of labelled) expect(turn.found).toBe(!archived.has(nodeOfKey(turn.turnKey)));
          expect(leaks(labelled)).toEqual([]);

          // Dossier inputs (C15): of every answered question's cited version, only the live ones are read.
          const cited = questions.map((node) => canvasLabelKey(canvasId, node.id, node.currentVersionId!));
          const dossierTurns = await readDossierTurns(cited, { database: null, canvases });
          expect(dossierTurns.map((turn) => turn.turnKey).sort()).toEqual(
            liveQuestions.map((node) => canvasLabelKey(canvasId, node.id, node.currentVersionId!)).sort(),
          );
          expect(leaks(dossierTurns)).toEqual([]);

          // Recall (C16): a canvas turn's source is gone exactly when its node is archived.
          const sources = turnKeySources(null, [document]);
          for (const node of document.nodes)
            expect(sources.gone(canvasTurnKey(canvasId, node.id))).toBe(archived.has(node.id));

          // The why index's canvas record: no archived node's turn, material or words.
          const record = indexCanvas(document);
          for (const turn of record.session.turns) expect(archived.has(nodeOfKey(turn.key))).toBe(false);
          for (const row of record.materials) expect(archived.has(nodeOfKey(row.turnKey))).toBe(false);
          expect(leaks(record)).toEqual([]);
          for (const node of liveQuestions)
            expect(record.session.turns.map((turn) => turn.key)).toContain(canvasTurnKey(canvasId, node.id));
        }),
        { numRuns: 40 },
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
